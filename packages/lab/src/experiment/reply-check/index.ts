export { judgeReplyHere } from './judge-reply.js';
export type { ReplyJudge } from './judge-reply.js';
