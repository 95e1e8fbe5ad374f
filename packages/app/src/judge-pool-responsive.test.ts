import inject from 'light-my-request';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { createJudgePool } from '@holdfast/lab/experiment';
import type { JudgePool } from '@holdfast/lab/experiment';
import { STALLING_JUDGE_WORKER as STALLING } from '@holdfast/lab/test-support';
import { createApp } from './create-app.js';
import { makeWorkspace } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';

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

describe('the server while a reply is judged in a worker', () => {
  it('keeps the caller answering while a reply is being judged: /api/config answers', async () => {
    const judges = pool({ entry: STALLING, size: 1, budgetMs: 3_600_000 });
    let settled = false;
    const judged = judges.judge('{"actions": []}', [], rulebook).then((result) => {
      settled = true;
      return result;
    });
    const workspace = makeWorkspace();
    try {
      const { app } = createApp({
        cwd: workspace.cwd,
        runsDir: workspace.runsDir,
        env: workspace.env,
        host: '127.0.0.1',
        port: 5177,
        probeTimeoutMs: 200,
        judgeReply: judges.judge,
        log: () => {},
      });
      const config = await inject(app, { method: 'GET', url: '/api/config', headers: { host: HOST } });
      expect(config.statusCode).toBe(200);
      const runs = await inject(app, { method: 'GET', url: '/api/runs', headers: { host: HOST } });
      expect(runs.statusCode).toBe(200);
      expect(settled).toBe(false);
    } finally {
      workspace.cleanup();
    }
    await judges.close();
    expect((await judged).parsed).toEqual({ kind: 'unparseable', reason: 'the reply could not be judged: the server is shutting down' });
  });
});
