import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ArmResultSchema } from '@holdfast/core/contract';
import { renderRulebook } from '@holdfast/core/rules';
import { createAnthropicAdapter, createOpenAiCompatibleAdapter } from '../../models/index.js';
import { startFakeOpenAi, startFakeServer } from '../../models/test-support/fake-openai-server.js';
import type { FakeReply, FakeServer } from '../../models/test-support/fake-openai-server.js';
import { testRuntime } from '../../models/test-support/test-runtime.js';
import { runLoopArm } from './loop-arm.js';
import { loopTask } from './loop-prompt.js';
import { createLoopWorkspaces } from './loop-workspace.js';
import type { LoopWorkspaces } from './loop-workspace.js';
import { LOOP_RULEBOOK, LOOP_TASK, MODULE_WITH_LOG, anthropicAgent, openAiAgent } from './test-support/scripted-agent.js';
import type { AgentPolicy } from './test-support/scripted-agent.js';

const CAP = 64 * 1024;
const agentsMd = renderRulebook(LOOP_RULEBOOK);
const task = loopTask(LOOP_TASK, agentsMd);
let workspaces: LoopWorkspaces;
const servers: FakeServer[] = [];

beforeAll(() => {
  workspaces = createLoopWorkspaces({ rulebook: LOOP_RULEBOOK, isolation: { kind: 'none', detail: 'tests run commands unisolated' } });
});
afterAll(async () => {
  await workspaces.dispose();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A tool call whose arguments are four times the cap: the body passes the cap mid-arguments. */
function hugeCall(provider: 'openai' | 'anthropic'): FakeReply {
  const content = 'x'.repeat(4 * CAP);
  const body =
    provider === 'openai'
      ? {
          choices: [
            {
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'c', type: 'function', function: { name: 'write_file', arguments: JSON.stringify({ path: 'src/a.ts', content }) } }],
              },
              finish_reason: 'tool_calls',
            },
          ],
        }
      : { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'write_file', input: { path: 'src/a.ts', content } }], stop_reason: 'tool_use' };
  return { status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

async function play(arm: 'told' | 'held', provider: 'openai' | 'anthropic', policy: AgentPolicy) {
  const script = provider === 'openai' ? openAiAgent(policy) : anthropicAgent(policy);
  const server = provider === 'openai' ? await startFakeOpenAi({ script }) : await startFakeServer({ script });
  servers.push(server);
  const common = { baseUrl: server.baseUrl, runtime: testRuntime(), retry: { maxAttempts: 1 }, maxReplyBytes: CAP };
  const model =
    provider === 'openai'
      ? createOpenAiCompatibleAdapter({ id: 'fake', model: 'fake-model', apiKey: 'sk-test-0123456789abcdef', ...common })
      : createAnthropicAdapter({ id: 'claude', model: 'claude-test', apiKey: 'sk-ant-test-0123456789', ...common });
  const { workspace, release } = await workspaces.open(task, `cap-${provider}-${arm}-${Math.random().toString(36).slice(2)}`);
  try {
    const result = await runLoopArm({
      arm,
      task,
      agentsMd,
      rulebook: LOOP_RULEBOOK,
      model: { converse: model.converse! },
      workspace,
      maxTokens: 4_000,
      temperature: 0,
    });
    if (result === undefined) throw new Error('the arm was cancelled');
    expect(ArmResultSchema.parse(JSON.parse(JSON.stringify(result)))).toEqual(result);
    return result;
  } finally {
    release();
  }
}

describe('loop mode: a reply over its size cap', () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    for (const arm of ['told', 'held'] as const) {
      it(`${provider}, ${arm}: is unparseable, "too large", never an error, and the session says why it stopped`, async () => {
        const result = await play(arm, provider, (turn) => (turn === 1 ? { reply: hugeCall(provider) } : { text: 'done' }));
        expect(result.verdict).toBe('unparseable');
        expect(result.reason).toMatch(/^too large: .*passed 65536 bytes/);
        expect(result.parse).toMatchObject({ kind: 'unparseable', reason: expect.stringMatching(/^too large/) });
        expect(result.error).toBeUndefined();
        expect(result.session?.stop.reason).toBe('too-large');
        expect(JSON.stringify(result).length).toBeLessThan(CAP);
      });
    }
  }

  it('told: a violation that landed before the reply that was too large still counts', async () => {
    const result = await play('told', 'openai', (turn) =>
      turn === 1 ? { calls: [{ name: 'write_file', input: { path: 'src/features/refunds.ts', content: MODULE_WITH_LOG } }] } : { reply: hugeCall('openai') },
    );
    expect(result.verdict).toBe('violated');
    expect(result.session?.stop.reason).toBe('too-large');
    expect(result.reason).toMatch(/too-large/);
  });
});
