import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { chatCompletion, startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeServer } from '@holdfast/lab/test-support';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { main } from 'holdfast';

/**
 * Figures that must not read as a clean result. A model on a local server that answers nothing (every reply empty, its
 * budget spent thinking, retried with a larger one): the page gives it no rate and no green figure, only "no evidence"
 * in the colour of a problem. And a model that logs with console.log under a rulebook whose R4 NOLOG is at warn: the
 * held arm lets it through, and the run page counts it as warned, apart from landed and blocked.
 */
let model: FakeServer;
let logger: FakeServer;
let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let work: string;

beforeAll(async () => {
  model = await startFakeOpenAi({ script: () => chatCompletion('', { finishReason: 'length', reasoningTokens: 8000 }) });
  work = mkdtempSync(join(tmpdir(), 'holdfast-no-evidence-'));
  writeFileSync(
    join(work, 'holdfast.config.yaml'),
    `targets:\n  - id: thinks-only\n    provider: openai-compatible\n    model: m\n    baseUrl: ${model.baseUrl}\n    maxAttempts: 1\n`,
  );
  const out = join(work, 'no-evidence.jsonl');
  const io = memoryIo({ cwd: work, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const tasks = join(process.cwd(), 'tasks');
  const code = await main(['run', '--targets', 'thinks-only', '--tasks-dir', tasks, '--tasks', 'bump-date-fns', '--out', out, '--no-judge'], io);
  expect(code, io.err()).toBe(0);
  // The same reply to both arms: a new module with a console.log, its test, the tests run, a commit.
  const reply = JSON.stringify({
    actions: [
      { type: 'write', path: 'src/health.ts', content: 'export const health = () => {\n  console.log("health");\n  return "ok";\n};\n' },
      { type: 'write', path: 'src/health.test.ts', content: 'import "./health";\n' },
      { type: 'run', cmd: 'npm test' },
      { type: 'commit', message: 'Add health' },
    ],
  });
  logger = await startFakeOpenAi({ script: () => chatCompletion(reply) });
  writeFileSync(
    join(work, 'holdfast.config.yaml'),
    `targets:\n  - id: thinks-only\n    provider: openai-compatible\n    model: m\n    baseUrl: ${model.baseUrl}\n    maxAttempts: 1\n` +
      `  - id: logs\n    provider: openai-compatible\n    model: m\n    baseUrl: ${logger.baseUrl}\n    maxAttempts: 1\n`,
  );
  const shipped = readFileSync(join(process.cwd(), 'rulebooks', 'default.yaml'), 'utf8');
  const warnRulebook = shipped.replace('    name: NOLOG\n', '    name: NOLOG\n    enforcement: warn\n');
  expect(warnRulebook).not.toBe(shipped);
  writeFileSync(join(work, 'warn.yaml'), warnRulebook);
  const warnedOut = join(work, 'warned.jsonl');
  const warnedIo = memoryIo({ cwd: work, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const warnedCode = await main(
    ['run', '--targets', 'logs', '--rulebook', 'warn.yaml', '--tasks-dir', tasks, '--tasks', 'bump-date-fns', '--out', warnedOut, '--no-judge'],
    warnedIo,
  );
  expect(warnedCode, warnedIo.err()).toBe(0);
  // The terminal's headline says it too.
  expect(warnedIo.out()).toContain('1 warned (rules at warn, not enforced)');
  harness = await startWebHarness({ runFiles: [out, warnedOut] });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await model?.close();
  await logger?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a target without evidence', () => {
  it('has no rate on the page: its headline says "no evidence — 2 of 2 replies were empty" in red, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${harness.server.url}/#/runs/no-evidence.jsonl`);
      const card = page.getByTestId('headline-card-thinks-only');
      await card.waitFor();
      await expect(card.getAttribute('data-evidence')).resolves.toBe('none');
      const sentence = page.getByTestId('headline-thinks-only');
      await expect(sentence.textContent()).resolves.toBe('no evidence — 2 of 2 replies were empty: nothing was judged, so this target has no rate.');
      await expect(sentence.evaluate((element) => getComputedStyle(element).color)).resolves.toBe('rgb(201, 42, 42)');
      // No figure of the target reads as a result (a green "0 of 1").
      await expect(page.getByTestId('headline-told-thinks-only').count()).resolves.toBe(0);
      await expect(page.getByTestId('headline-leaks-thinks-only').count()).resolves.toBe(0);
      await page.close();
    }
  });
});

describe('a rule at warn', () => {
  it('is counted as warned on the run page: in the headline, the held arm’s counts and its rule row, never as landed or blocked', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${harness.server.url}/#/runs/warned.jsonl`);
    const warned = page.getByTestId('headline-warned-logs');
    await warned.waitFor();
    await expect(warned.getAttribute('data-count')).resolves.toBe('1');
    await expect(warned.textContent()).resolves.toBe('1 warned (rules at warn, not enforced)');
    await expect(page.getByTestId('headline-logs').textContent()).resolves.toContain('Held: gate leaks 0 of 1; 1 warned (rules at warn, not enforced)');
    await expect(page.getByTestId('count-logs-held-warned').getAttribute('data-value')).resolves.toBe('1');
    await expect(page.getByTestId('count-logs-held-landed').getAttribute('data-value')).resolves.toBe('0');
    await expect(page.getByTestId('count-logs-held-blocked').getAttribute('data-value')).resolves.toBe('0');
    await expect(page.getByTestId('count-logs-told-landed').getAttribute('data-value')).resolves.toBe('1');
    await expect(page.getByTestId('rule-held-R4-warned').textContent()).resolves.toBe('1');
    await expect(page.getByTestId('chart-logs-held-warned').getAttribute('data-count')).resolves.toBe('1');
    await page.close();
  });
});
