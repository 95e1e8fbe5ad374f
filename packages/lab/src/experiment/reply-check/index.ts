export { judgeReplyHere } from './judge-reply.js';
export type { JudgedReply, ReplyJudge } from './judge-reply.js';
export { createJudgePool } from './judge-pool.js';
export type { JudgePool, JudgePoolOptions } from './judge-pool.js';
