import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { main } from 'holdfast';
import { answer, recordOf, startScriptedJudge } from '@holdfast/lab/test-support';
import type { ScriptedJudge } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';

const EXAMPLE = fileURLToPath(new URL('../../runs/example.jsonl', import.meta.url));
const JUDGED = fileURLToPath(new URL('../../rulebooks/judged.yaml', import.meta.url));

let work: string;
let judge: ScriptedJudge;
let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'holdfast-web-judged-'));
  // The judge grades violated when the arm wrote console.log, with its evidence.
  judge = await startScriptedJudge((request) =>
    recordOf(request).includes('console.log')
      ? answer('violated', 0.85, { reason: 'A console.log call under src/.', evidence: [{ file: 'src/checkout.ts', line: 4, quote: null }] })
      : answer('clean', 0.9, { reason: 'No console.log call.' }),
  );
  await writeFile(
    join(work, 'holdfast.config.yaml'),
    `targets:\n  - id: judge\n    provider: openai-compatible\n    model: judge-model\n    baseUrl: ${judge.server.baseUrl}\n    maxAttempts: 1\n`,
  );
  const runFile = join(work, 'judged.jsonl');
  await copyFile(EXAMPLE, runFile);
  const io = memoryIo({ cwd: work });
  const code = await main(['judge', runFile, '--rulebook', JUDGED, '--rule', 'J4'], io);
  if (code !== 0) throw new Error(`holdfast judge exited ${code}: ${io.err()}`);
  harness = await startWebHarness({ runFiles: [runFile], defaultRun: 'judged.jsonl' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await judge?.server.close();
  await rm(work, { recursive: true, force: true });
});

describe('judge grades in the web app', () => {
  it('shows a judged (advisory) section in the round view, apart from the verdicts, with confidence and evidence', async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${harness.server.url}/#/runs/judged.jsonl`);
    await page.getByTestId('tab-rounds').click();
    await page.getByTestId('round-row').filter({ hasText: 'debug-checkout-logging' }).filter({ hasText: 'demo-hasty' }).first().click();
    const round = page.locator('[data-testid="round-view"][data-detail="full"]');
    await round.waitFor();

    const section = round.getByTestId('judged-advisory');
    await expect(section.locator('h3').textContent()).resolves.toBe('Judged (advisory)');
    // The picker names the file's rounds and status once the run list has come, which can be after the round.
    await expect.poll(() => page.locator('select').first().textContent()).toMatch(/judged\.jsonl · 48 rounds · completed/);
    await expect(section.textContent()).resolves.toContain('never changes the verdicts above');
    const told = section.locator('[data-testid="judged-row"][data-arm="told"]');
    await expect(told.getAttribute('data-rule')).resolves.toBe('J4');
    // The hasty model logs in the told arm, and the held gate blocks the write: both records hold the call.
    await expect(told.getAttribute('data-judged')).resolves.toBe('violated');
    await expect(told.textContent()).resolves.toMatch(/0\.85.*src\/checkout\.ts:4.*A console\.log call under src\//);
    // The deterministic verdicts sit in the arms, outside the advisory section.
    await expect(round.getByTestId('arm-told').getByTestId('judged-advisory').count()).resolves.toBe(0);
    await page.screenshot({ path: join(process.cwd(), 'test-results', 'web-judged.png'), fullPage: true });
  });
});
