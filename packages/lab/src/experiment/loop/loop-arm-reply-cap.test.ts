import { describe, expect, it } from 'vitest';
import type { FakeReply } from '../../models/test-support/fake-openai-server.js';
import { MODULE_WITH_LOG } from './test-support/scripted-agent.js';
import type { AgentPolicy } from './test-support/scripted-agent.js';
import { loopPlayer } from './test-support/loop-player.js';
import type { LoopProvider } from './test-support/loop-player.js';

const CAP = 64 * 1024;
const player = loopPlayer({ maxReplyBytes: CAP });

/** A tool call whose arguments are four times the cap: the body passes the cap mid-arguments. */
function hugeCall(provider: LoopProvider): FakeReply {
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

async function play(arm: 'told' | 'held', provider: LoopProvider, policy: AgentPolicy) {
  return (await player.play(arm, policy, { provider })).result;
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
