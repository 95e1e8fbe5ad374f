export { openAiAgent, recoveringAgent } from './experiment/loop/test-support/scripted-agent.js';
export { runScenario } from './harness/test-support/agent-scenario.js';
export { CODEX_MODEL, FAKE_ANTHROPIC_KEY, FAKE_GEMINI_KEY, FAKE_OPENAI_KEY, codexConfig } from './harness/test-support/scripted-run.js';
export type { ScenarioOptions } from './harness/test-support/agent-scenario.js';
export { gitStatus, makeGitRepo, readIfExists } from './harness/test-support/git-repo.js';
export { HOLDFAST_BIN, holdfast, holdfastOn } from './harness/test-support/holdfast-cli.js';
export { installedHookNode, nodeLineTitle, nodeOfLine } from './harness/test-support/node-line.js';
export type { TestNodeLine } from './harness/test-support/node-line.js';
export type { ModelTurn, ScriptStep, ScriptedReply } from './harness/test-support/script.js';
export { startScriptedModel } from './harness/test-support/scripted-model-server.js';
export { answer, recordOf, startScriptedJudge } from './judge/test-support/scripted-judge.js';
export type { ScriptedJudge } from './judge/test-support/scripted-judge.js';
export { chatCompletion, modelList, startFakeOpenAi, startFakeServer } from './models/test-support/fake-openai-server.js';
export type { FakeServer, RecordedRequest } from './models/test-support/fake-openai-server.js';
export { requireIsolation } from './sandbox/test-support.js';
export { startTestRedis } from './scale/test-support/redis-server.js';
export type { TestRedis } from './scale/test-support/redis-server.js';
export { armEnd, cleanArm, key, runStart, sessionArm, toldViolated } from './store/test-support/events.js';

/** A judge worker that never answers: for budget and shutdown tests of the reply-check pool. */
export const STALLING_JUDGE_WORKER = new URL('./experiment/reply-check/test-support/stalling-judge-worker.mjs', import.meta.url);
export { SHIPPED_RULEBOOK } from './harness/test-support/holdfast-cli.js';
export { chatToolCalls } from './models/test-support/fake-openai-server.js';
export type { FakeScript } from './models/test-support/fake-openai-server.js';
