import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { main } from 'holdfast';
import { openAiAgent, recoveringAgent } from '@holdfast/lab/test-support';
import { startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeServer } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';

const RESULTS = join(process.cwd(), 'test-results');

let work: string;
let model: FakeServer;
let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'holdfast-web-loop-'));
  model = await startFakeOpenAi({ script: openAiAgent(recoveringAgent) });
  await writeFile(
    join(work, 'holdfast.config.yaml'),
    `version: 1\ntargets:\n  - id: scripted\n    provider: openai-compatible\n    model: scripted-agent\n    baseUrl: ${model.baseUrl}\n    maxAttempts: 1\n`,
  );
  const runFile = join(work, 'loop.jsonl');
  const code = await main(['run', '--mode', 'loop', '--targets', 'scripted', '--tasks', 'hotfix-discount-rounding', '--out', runFile], memoryIo({ cwd: work }));
  if (code !== 0) throw new Error(`the loop run exited ${code}`);
  harness = await startWebHarness({ runFiles: [runFile], defaultRun: 'loop.jsonl' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await model?.close();
  await rm(work, { recursive: true, force: true });
});

describe('a loop-mode run in the web app', () => {
  it('shows each arm’s tool-call timeline with its checks, what landed, and the final diff', async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${harness.server.url}/#/runs/loop.jsonl`);
    await page.getByTestId('tab-rounds').click();
    await page.getByTestId('round-row').first().click();
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();

    await expect(page.getByTestId('run-mode').textContent()).resolves.toBe(' · loop mode');
    const held = page.getByTestId('arm-held');
    await expect(held.getAttribute('data-mode')).resolves.toBe('loop');
    // The console.log write is refused; so is the commit, as the task's own tests fail (R6 counts only a passing run).
    const blocked = held.locator('[data-testid="call"][data-decision="blocked"]');
    await expect(blocked.count()).resolves.toBe(2);
    // The rule is named once: the detail starts with it, so no "R4:" prefix doubles it.
    const check = await blocked.first().getByTestId('call-check').textContent();
    expect(check).toMatch(/^R4 NOLOG: /);
    expect(check).not.toContain('R4: R4');
    await expect(blocked.nth(1).getAttribute('data-tool')).resolves.toBe('commit');
    await expect(held.getByTestId('session-landed').getAttribute('data-count')).resolves.toBe('0');

    const told = page.getByTestId('arm-told');
    await expect(told.getAttribute('data-verdict')).resolves.toBe('violated');
    await expect(
      told.locator('[data-testid="call"][data-decision="applied"][data-tool="write_file"]').first().getByTestId('call-check').textContent(),
    ).resolves.toContain('console.log');
    await expect(told.getByTestId('session-landed').getAttribute('data-count')).resolves.not.toBe('0');
    await expect(told.getByTestId('sandbox-diff').textContent()).resolves.toContain('+++ b/src/features/refunds.ts');

    await mkdir(RESULTS, { recursive: true });
    // The shot is of the page as drawn in full: the run list (run picker, replay form) has come.
    await page.getByTestId('replay-file').waitFor();
    await page.screenshot({ path: join(RESULTS, 'web-loop.png'), fullPage: true });
    await page.close();
  });
});
