import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { createJudgePool } from './judge-pool.js';
import type { JudgePool } from './judge-pool.js';
import { judgeReplyHere } from './judge-reply.js';

// The real worker runs compiled code: `npm run build` first (npm test does).
const COMPILED = new URL('../../../dist/experiment/reply-check/judge-worker.js', import.meta.url);
const STALLING = new URL('./test-support/stalling-judge-worker.mjs', import.meta.url);

let rulebook: Rulebook;
const pools: JudgePool[] = [];

function pool(options: Parameters<typeof createJudgePool>[0]): JudgePool {
  const created = createJudgePool(options);
  pools.push(created);
  return created;
}

beforeAll(async () => {
  rulebook = await loadRulebook();
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((each) => each.close()));
});

describe('createJudgePool', () => {
  it.runIf(existsSync(COMPILED))('judges in a worker exactly as on the calling thread', async () => {
    const judges = pool({ entry: COMPILED, size: 1 });
    const replies = [
      JSON.stringify({
        actions: [
          { type: 'write', path: 'src/a.ts', content: 'console.log(1);\n' },
          { type: 'commit', message: 'a' },
        ],
      }),
      '```json\n{"a": 1,}\n```\n'.repeat(12_000),
      `{'actions': [{'type': 'run', 'cmd': 'npm test'},]}`,
    ];
    for (const raw of replies) {
      expect(await judges.judge(raw, ['src/a.ts'], rulebook)).toEqual(await judgeReplyHere(raw, ['src/a.ts'], rulebook));
    }
  });

  it('ends a judgement over budget as unparseable and judges the next reply with a fresh worker', async () => {
    const judges = pool({ entry: STALLING, size: 1, budgetMs: 1 });
    const first = await judges.judge('{"actions": []}', [], rulebook);
    expect(first).toEqual({ parsed: { kind: 'unparseable', reason: 'reading and checking the reply took longer than 1 ms; it was not read' }, checks: [] });
    const second = await judges.judge('{"actions": []}', [], rulebook);
    expect(second.parsed.kind).toBe('unparseable');
  });

  it('queues replies beyond its size and answers each', async () => {
    const judges = pool({ entry: STALLING, size: 2, budgetMs: 1 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => judges.judge('{}', [], rulebook)));
    expect(answers.map((answer) => answer.parsed.kind)).toEqual(Array(5).fill('unparseable'));
  });
});
