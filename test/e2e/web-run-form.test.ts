import { execFile } from 'node:child_process';
import { appendFileSync, copyFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage as openHarnessPage, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { parseRunFileText, reduceRunEvents } from '@holdfast/lab/store';

// The run form in headless Chromium with the SHIPPED holdfast.config.yaml and no keys: what a person
// sees on first open, a replay narrowed to one task and one rep, agent mode, 390 px, an empty folder.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHIPPED_CONFIG = join(ROOT, 'holdfast.config.yaml');
const AGENT = join(ROOT, 'runs/demo/agents/scripted-agent.mjs');
const BIN = join(ROOT, 'packages/cli/bin/holdfast.js');
const RESULTS = '/tmp/holdfast-web-run-form';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  // PATH so a generic agent's `node` is found; HOME-less otherwise, and no key of any kind.
  harness = await startWebHarness({ configFile: SHIPPED_CONFIG, env: { PATH: process.env.PATH ?? '' } });
  browser = await launchChromium();
  await mkdir(RESULTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const openPage = (hash = ''): Promise<Page> => openHarnessPage(browser.context, harness.server.url, hash);

/** axe-core's serious and critical findings inside the run form only (the run page is scanned by web-accessibility). */
async function formViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Element, options: object) => Promise<Result> } }).axe;
    const result = await axe.run(document.querySelector('[data-testid="selection"]')!, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} ${JSON.stringify(violation.nodes[0]?.target)}`);
  });
}

async function problemLines(page: Page): Promise<Record<string, string>> {
  const lines = await page
    .locator('[data-testid^="target-problem-"]')
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-testid')?.replace('target-problem-', '') ?? '', node.textContent ?? '']));
  return Object.fromEntries(lines);
}

/** The page opened with its run list held back until `release`: the configuration and the rest arrive first. */
async function openWithRunListHeld(): Promise<{ page: Page; release: () => void }> {
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/runs', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${harness.server.url}/`);
  return { page, release };
}

describe('the run form with the shipped holdfast.config.yaml', () => {
  it('first open: nothing configured can run, each target says why in one line, and the demo replay is offered first', async () => {
    const page = await openPage();
    await page.getByTestId('selection').waitFor();
    await page.getByTestId('nothing-runs').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    const plan = await problemLines(page);
    expect(plan).toMatchObject({
      'ollama-llama3': 'ollama not running at localhost:11434: run `ollama serve`',
      'openai-gpt-4.1-mini': 'no key: set OPENAI_API_KEY in .env',
      'openrouter-llama-3.3-70b': 'no key: set OPENROUTER_API_KEY in .env',
      'anthropic-sonnet': 'no key: set ANTHROPIC_API_KEY in .env',
    });
    for (const line of Object.values(plan)) expect(line.length, line).toBeLessThanOrEqual(70);
    // `holdfast targets` in the same folder with the same environment gives each the same first fix, first under its row.
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'targets'], { cwd: harness.cwd, env: { PATH: process.env.PATH ?? '' } });
    const terminal = stdout.split('\n');
    for (const [id, line] of Object.entries(plan)) {
      const row = terminal.findIndex((text) => text.startsWith(`${id} `));
      expect(terminal[row + 1], id).toBe(`  cannot run: ${line}`);
    }
    await expect(page.getByTestId('start-run').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('run-blocker').textContent()).resolves.toMatch(/No plan-mode target can run here \(each says why above\)/);
    // The shipped demo is what runs: enabled, primary, and it says how many rounds it plays.
    // The run list arrives after the configuration: the button is enabled once it is in.
    const replay = page.getByTestId('start-replay');
    await page.locator('[data-testid="start-replay"]:enabled').waitFor();
    await expect(replay.getAttribute('class')).resolves.toContain('primary');
    await expect(replay.textContent()).resolves.toBe('Replay 48 rounds');
    // The demo banner says its thing once.
    const banner = (await page.getByTestId('demo-banner').textContent()) ?? '';
    expect(banner).toMatch(/^Demo run: Hand-written replies/);
    expect(banner.match(/not (?:produced by|outputs of) a (?:real )?model/gi)).toHaveLength(1);
    expect(await formViolations(page)).toEqual([]);
    await page.screenshot({ path: join(RESULTS, 'first-open.png'), fullPage: true });

    // Agent mode lists the harnesses, each with its own reason and fix.
    await page.getByTestId('mode').selectOption('agent');
    // The turn cap is drawn with the agent-mode form: its targets are listed from then on.
    await page.getByTestId('turn-cap').waitFor();
    const agent = await problemLines(page);
    expect(agent['claude-code-agent']).toBe('no key: set ANTHROPIC_API_KEY in .env');
    expect(agent['codex-agent']).toBe('no key: set OPENAI_API_KEY or CODEX_API_KEY in .env');
    expect(Object.keys(agent)).not.toContain('openai-gpt-4.1-mini');
    await expect(page.getByTestId('sandbox-toggle').count()).resolves.toBe(0);
    expect(await formViolations(page)).toEqual([]);
    await page.close();
  });

  it('a run list that arrives after the configuration still offers the demo replay, enabled', async () => {
    // The page asks for the configuration and the run list at once; here the list is held until the form is drawn.
    const { page, release } = await openWithRunListHeld();
    await page.getByTestId('nothing-runs').waitFor();
    await expect(page.getByTestId('start-replay').isDisabled()).resolves.toBe(true);
    // Until the list comes the form says it is reading it, not that there is no run to replay.
    await expect(page.getByTestId('replay-loading').textContent()).resolves.toBe('Reading the saved runs…');
    await expect(page.getByTestId('no-replay').count()).resolves.toBe(0);
    release();
    await page.locator('[data-testid="start-replay"]:enabled').waitFor();
    await expect(page.getByTestId('start-replay').textContent()).resolves.toBe('Replay 48 rounds');
    await expect(page.getByTestId('replay-file').inputValue()).resolves.toBe('example.jsonl');
    await page.close();
  });

  it('a run list that could not be read is said, not shown as "no saved run"', async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    // The server's own error shape, as it answers when the runs folder cannot be read.
    await page.route('**/api/runs', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'E_IO', message: 'runs: permission denied' } }) }),
    );
    await page.goto(`${harness.server.url}/`);
    await page.getByTestId('replay-list-error').waitFor();
    await expect(page.getByTestId('replay-list-error').textContent()).resolves.toBe(
      'The saved runs could not be read: runs: permission denied. Reload the page to try again.',
    );
    await expect(page.getByTestId('no-replay').count()).resolves.toBe(0);
    await expect(page.getByTestId('replay-loading').count()).resolves.toBe(0);
    await expect(page.getByTestId('start-replay').isDisabled()).resolves.toBe(true);
    await page.close();
  });

  it('replays only the chosen task and rep: one task, one rep of the 48-round demo is 3 rounds, all rep 1', async () => {
    const page = await openPage();
    await page.getByTestId('replay-file').selectOption('example.jsonl');
    await page.getByTestId('replay-task').selectOption('bump-date-fns');
    await page.getByTestId('replay-reps').selectOption('1');
    await expect.poll(() => page.getByTestId('start-replay').textContent()).toBe('Replay 3 rounds');
    await page.getByTestId('start-replay').click();
    await page.waitForURL(/#\/live\//);
    await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor();
    await expect(page.getByTestId('run-status').textContent()).resolves.toContain('3/3 rounds');
    // example.jsonl was recorded with the sandbox and this replay has none: the page says so above its figures.
    await expect(page.getByTestId('run-note').textContent()).resolves.toMatch(
      /^Note: "example\.jsonl" was recorded with the sandbox .* its figures can differ/,
    );
    const runId = decodeURIComponent(new URL(page.url()).hash.replace('#/live/', '').split('?')[0] ?? '');
    const state = reduceRunEvents(parseRunFileText(readFileSync(join(harness.runsDir, `${runId}.jsonl`), 'utf8'), runId));
    expect(state.rounds.toArray().map((round) => `${round.task}/${round.rep}`)).toEqual(['bump-date-fns/0', 'bump-date-fns/0', 'bump-date-fns/0']);
    // The page numbers that rep 0 as rep 1, as the terminal and the reports do.
    await page.getByTestId('tab-rounds').click();
    await page.getByTestId('round-row').first().click();
    await expect(page.getByTestId('round-view').textContent()).resolves.toContain('bump-date-fns · rep 1');
    await page.close();
  });

  it('at 390 px the form and the page do not scroll sideways, in plan and in agent mode', async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${harness.server.url}/`);
    await page.getByTestId('selection').waitFor();
    await page.locator('[data-testid="verdict-strip"][data-drawn="48"]').waitFor();
    // The run list fills the run picker and the replay form, which can widen them: measured once it has come.
    await page.getByTestId('replay-file').waitFor();
    const overflow = () => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByTestId('selection').screenshot({ path: join(RESULTS, 'form-390.png') });
    await page.getByTestId('mode').selectOption('agent');
    await page.getByTestId('turn-cap').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByTestId('selection').screenshot({ path: join(RESULTS, 'form-390-agent.png') });
    await page.close();
  });

  it('starts an agent-mode run from the page with a generic agent added to the shipped config', async () => {
    const config = join(harness.cwd, 'holdfast.config.yaml');
    appendFileSync(config, `\n  - id: scripted-recovers\n    provider: agent\n    command: [node, ${JSON.stringify(AGENT)}, recover]\n    maxTurns: 5\n`);
    try {
      const page = await openPage();
      await page.getByTestId('selection').waitFor();
      // A target that can run now exists: the form opens on its mode with it chosen.
      await expect(page.getByTestId('mode').inputValue()).resolves.toBe('agent');
      await page.getByTestId('target-scripted-recovers').waitFor();
      await expect(page.getByTestId('harness-settings').textContent()).resolves.toContain('scripted-recovers: 5 turns, 900 s');
      for (const task of [
        'bump-date-fns',
        'dockerfile-build',
        'exchange-rates-widget',
        'hotfix-discount-rounding',
        'partner-sync-retry',
        'skip-flaky-ci',
        'staging-analytics-key',
      ]) {
        const box = page.locator('.choice-list.tasks label', { hasText: task }).locator('input');
        if ((await box.count()) > 0) await box.uncheck();
      }
      await page.getByTestId('turn-cap').fill('4');
      await expect(page.getByTestId('start-run').textContent()).resolves.toBe('Run 1 target in agent mode');
      await page.getByTestId('start-run').click();
      await page.waitForURL(/#\/live\//);
      await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor();
      await expect(page.getByTestId('run-mode').textContent()).resolves.toContain('agent mode');
      const runId = decodeURIComponent(new URL(page.url()).hash.replace('#/live/', '').split('?')[0] ?? '');
      const events = parseRunFileText(readFileSync(join(harness.runsDir, `${runId}.jsonl`), 'utf8'), runId);
      const start = events[0];
      expect(start?.type === 'run-start' && start.config).toMatchObject({ mode: 'agent', turnCap: 4, tasks: ['debug-checkout-logging'] });
      const [round] = reduceRunEvents(events).rounds.toArray();
      expect(`${round?.told?.verdict}/${round?.held?.verdict}`).toBe('violated/recovered');
      await page.screenshot({ path: join(RESULTS, 'agent-run.png'), fullPage: true });
      await page.close();
    } finally {
      copyFileSync(SHIPPED_CONFIG, config);
    }
  });

  it('an empty runs folder says what to do, not "loading" forever, and is not called empty before it is read', async () => {
    for (const name of readdirSync(harness.runsDir)) rmSync(join(harness.runsDir, name), { force: true, recursive: true });
    // The run list is held until the configuration has drawn the page: the folder is not yet known to be empty.
    const { page, release } = await openWithRunListHeld();
    await page.locator('[data-testid="empty-runs"][data-read="no"]').waitFor();
    await expect(page.getByTestId('empty-runs').textContent()).resolves.toBe('No run openReading the runs folder…');
    await page.getByTestId('replay-loading').waitFor();
    await expect(page.getByTestId('no-replay').count()).resolves.toBe(0);
    release();
    await page.locator('[data-testid="empty-runs"][data-read="yes"]').waitFor();
    await expect(page.getByTestId('empty-runs').textContent()).resolves.toMatch(/No runs yet.*Start a run with the form/);
    await expect(page.getByTestId('run-status').getAttribute('data-status')).resolves.toBe('none');
    await expect(page.getByTestId('run-status').textContent()).resolves.not.toContain('loading');
    await expect(page.getByTestId('no-replay').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('replay-loading').count()).resolves.toBe(0);
    await page.screenshot({ path: join(RESULTS, 'empty.png'), fullPage: true });
    await page.close();
    // The same page when the list cannot be read: neither "reading" for ever nor "empty".
    const failed = await browser.context.newPage();
    await failed.route('**/api/runs', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'E_IO', message: 'runs: permission denied' } }) }),
    );
    await failed.goto(`${harness.server.url}/`);
    await failed.locator('[data-testid="empty-runs"][data-read="failed"]').waitFor();
    await expect(failed.getByTestId('empty-runs').textContent()).resolves.toMatch(
      /^No run openThe runs folder could not be read: runs: permission denied\. Reload the page/,
    );
    await failed.getByTestId('replay-list-error').waitFor();
    await expect(failed.getByTestId('no-replay').count()).resolves.toBe(0);
    await failed.close();
  });
});
