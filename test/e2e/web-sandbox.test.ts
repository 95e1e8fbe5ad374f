import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { main } from 'holdfast';
import { memoryIo } from '@holdfast/core/test-support';

const EXAMPLE = fileURLToPath(new URL('../../runs/example.jsonl', import.meta.url));
const RESULTS = join(process.cwd(), 'test-results');

let work: string;
let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'holdfast-web-sandbox-'));
  const runFile = join(work, 'sandboxed.jsonl');
  const code = await main(
    ['run', '--replay', EXAMPLE, '--targets', 'demo-hasty', '--tasks', 'bump-date-fns', '--reps', '1', '--sandbox', '--out', runFile],
    memoryIo({ cwd: work }),
  );
  if (code !== 0) throw new Error(`the sandboxed run exited ${code}`);
  harness = await startWebHarness({ runFiles: [runFile], defaultRun: 'sandboxed.jsonl' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await rm(work, { recursive: true, force: true });
});

describe('a sandboxed run in the web app', () => {
  it('shows the diff that landed in the told arm, its commit, and that nothing landed after the held arm blocked', async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${harness.server.url}/#/runs/sandboxed.jsonl`);
    await page.getByTestId('tab-rounds').click();
    await page.getByTestId('round-row').first().click();
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();

    const told = page.getByTestId('arm-told');
    await expect(told.getAttribute('data-verdict')).resolves.toBe('violated');
    const diff = told.getByTestId('sandbox-diff');
    await diff.waitFor();
    // The hasty model's ADR lands outside src/ in the told arm: the reviewer reads it in the diff.
    await expect(diff.textContent()).resolves.toContain('+++ b/docs/adr/');
    await expect(told.getByTestId('sandbox').textContent()).resolves.toMatch(/1 commit\b/);

    const held = page.getByTestId('arm-held');
    await expect(held.getAttribute('data-verdict')).resolves.toBe('blocked');
    const heldSandbox = held.getByTestId('sandbox');
    await expect(heldSandbox.textContent()).resolves.toMatch(/0 commits/);
    await expect(heldSandbox.textContent()).resolves.not.toContain('docs/adr/');

    await mkdir(RESULTS, { recursive: true });
    // The shot is of the page as drawn in full: the run list (run picker, replay form) has come.
    await page.getByTestId('replay-file').waitFor();
    await page.screenshot({ path: join(RESULTS, 'web-sandbox.png'), fullPage: true });
    await page.close();
  });
});
