import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArmTotals, Timers, Totals } from '@holdfast/core/contract';
import { launchChromium, openPage as openHarnessPage, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { parsePressureRecords, summarizePressureRecords } from '@holdfast/lab/pressure';
import type { PressureSummaryRow } from '@holdfast/lab/pressure';
import { formatRate } from '@holdfast/lab/report';
import { PRESSURE_VERDICT_ORDER } from '../../packages/app/web/src/verdict-style.js';
import { pressureRowKey } from '../../packages/app/web/src/components/pressure-view.js';
import { parseRunFileText } from '@holdfast/lab/store';
import { main } from 'holdfast';
import { memoryIo } from '@holdfast/core/test-support';

const RESULTS = join(process.cwd(), 'test-results');

let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let exampleTotals: Totals;
/** The example replayed from the terminal as the run form replays it (no sandbox): what the UI's replay must show. */
let replayTotals: Totals;
let pressureRows: PressureSummaryRow[];
let pressureWritten: number;
let pressureRecords: number;

/**
 * The server's approval deadlines: they fire when a test fires them, never by the wall clock, so a
 * timed-out commit is tested on cue (the other tests' gates, 600 s, simply never fire).
 */
const deadlines = new Map<number, { callback: () => void; ms: number }>();
let nextDeadline = 0;
const deadlineTimers: Timers = {
  setTimeout: (callback, ms) => {
    deadlines.set(++nextDeadline, { callback, ms });
    return nextDeadline;
  },
  clearTimeout: (handle) => deadlines.delete(handle as number),
};

function fireDeadlines(ms: number): number {
  const due = [...deadlines].filter(([, deadline]) => deadline.ms === ms);
  for (const [handle, { callback }] of due) {
    deadlines.delete(handle);
    callback();
  }
  return due.length;
}

beforeAll(async () => {
  harness = await startWebHarness({ timers: deadlineTimers });
  browser = await launchChromium();
  context = browser.context;
  const events = parseRunFileText(await readFile(join(harness.runsDir, 'example.jsonl'), 'utf8'), 'example.jsonl');
  const totals = events.findLast((event) => event.type === 'totals');
  if (totals?.type !== 'totals') throw new Error('the shipped example run has no totals event');
  exampleTotals = totals.totals;
  // The example's arms landed in sandboxes; a replay without one runs no command, so its totals are the terminal's replay's.
  const replayDir = await mkdtemp(join(tmpdir(), 'holdfast-web-replay-'));
  const replayIo = memoryIo({ cwd: replayDir });
  const replayed = join(replayDir, 'replayed.jsonl');
  if ((await main(['run', '--replay', join(harness.runsDir, 'example.jsonl'), '--out', replayed, '--concurrency', '8'], replayIo)) !== 0)
    throw new Error(`the terminal replay of the example failed: ${replayIo.err()}`);
  const replayedTotals = parseRunFileText(await readFile(replayed, 'utf8'), 'replayed.jsonl').findLast((event) => event.type === 'totals');
  if (replayedTotals?.type !== 'totals') throw new Error('the terminal replay of the example has no totals event');
  replayTotals = replayedTotals.totals;
  await rm(replayDir, { recursive: true, force: true });
  // The shipped pressure example goes where `holdfast serve` looks for pressure results.
  const pressureExample = join(process.cwd(), 'runs', 'pressure', 'example.jsonl');
  await mkdir(join(harness.runsDir, 'pressure'), { recursive: true });
  await copyFile(pressureExample, join(harness.runsDir, 'pressure', 'example.jsonl'));
  const records = parsePressureRecords(await readFile(pressureExample, 'utf8'), pressureExample);
  pressureRows = summarizePressureRecords(records);
  pressureWritten = records.filter((record) => record.origin === 'written').length;
  pressureRecords = records.length;
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const openPage = (hash = ''): Promise<Page> => openHarnessPage(context, harness.server.url, hash);

async function readArmFigures(page: Page, row: ArmTotals): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const key of ['attempts', 'landed', 'blocked', 'declined', 'refused', 'unparseable', 'errors'] as const) {
    figures[key] = Number(await page.getByTestId(`count-${row.target}-${row.arm}-${key}`).getAttribute('data-value'));
  }
  for (const key of ['roundsWithAttempt', 'roundsLanded', 'clean'] as const) {
    const rate = page.getByTestId(`rate-${row.target}-${row.arm}-${key}`);
    figures[`${key}.count`] = Number(await rate.getAttribute('data-count'));
    figures[`${key}.n`] = Number(await rate.getAttribute('data-n'));
  }
  return figures;
}

function expectedFigures(row: ArmTotals): Record<string, number> {
  return {
    attempts: row.attempts,
    landed: row.landed,
    blocked: row.blocked,
    declined: row.declined,
    refused: row.refused,
    unparseable: row.unparseable,
    errors: row.errors,
    'roundsWithAttempt.count': row.roundsWithAttempt.count,
    'roundsWithAttempt.n': row.roundsWithAttempt.n,
    'roundsLanded.count': row.roundsLanded.count,
    'roundsLanded.n': row.roundsLanded.n,
    'clean.count': row.clean.count,
    'clean.n': row.clean.n,
  };
}

async function startReplay(page: Page, gate: { timeoutSeconds: number } | undefined): Promise<void> {
  await page.getByTestId('selection').waitFor();
  if (gate !== undefined) {
    await page.getByTestId('human-gate').check();
    await page.getByTestId('approval-timeout').fill(String(gate.timeoutSeconds));
  }
  await page.getByTestId('replay-file').selectOption('example.jsonl');
  await page.getByTestId('start-replay').click();
  await page.waitForURL(/#\/live\//);
}

describe('the web app in headless Chromium', () => {
  it('opens on the shipped example run with its demo banner, strip and totals, matching the run file', async () => {
    const page = await openPage();
    await expect(page.getByTestId('demo-banner').textContent()).resolves.toMatch(/^Demo run: .*NOT outputs of a real model/);
    await page.locator('[data-testid="verdict-strip"][data-drawn="48"]').waitFor();
    await page.getByTestId('totals').waitFor();

    for (const row of exampleTotals.arms) {
      expect(await readArmFigures(page, row), `${row.target} ${row.arm}`).toEqual(expectedFigures(row));
    }
    const cleanText = await page.getByTestId(`rate-${exampleTotals.arms[0]?.target}-told-clean`).textContent();
    expect(cleanText).toMatch(/^\d+\/\d+ \d+% \[\d+%–\d+%\]$/);

    await mkdir(RESULTS, { recursive: true });
    // The shot is of the page as drawn in full: the run list (run picker, replay form) has come.
    await page.getByTestId('replay-file').waitFor();
    await page.screenshot({ path: join(RESULTS, 'web-totals.png'), fullPage: true });
    await page.close();
  });

  it('shows the pressure results of the shipped example: per rule, target and variant, equal to summarizePressureRecords', async () => {
    const page = await openPage();
    await page.getByTestId('tab-pressure').click();
    await page.locator('[data-testid="pressure-view"][data-file="example.jsonl"]').waitFor();
    await expect(page.getByTestId('pressure-picker').inputValue()).resolves.toBe('example.jsonl');

    const banner = page.getByTestId('pressure-written-banner');
    await expect(banner.textContent()).resolves.toContain('not produced by a model');
    expect(Number(await banner.getAttribute('data-written'))).toBe(pressureWritten);
    expect(pressureWritten).toBe(pressureRecords);

    const shown = await page.getByTestId('pressure-row').evaluateAll((rows) =>
      rows.map((row) => {
        const rate = row.querySelector('.rate');
        return {
          key: row.getAttribute('data-key'),
          count: Number(rate?.getAttribute('data-count')),
          n: Number(rate?.getAttribute('data-n')),
          text: rate?.querySelector('.rate-text')?.textContent ?? '',
          verdicts: Object.fromEntries(
            [...row.querySelectorAll('[data-testid="pressure-verdict"]')].map((cell) => [
              cell.getAttribute('data-verdict'),
              Number(cell.getAttribute('data-value')),
            ]),
          ),
        };
      }),
    );
    const expected = pressureRows.map((row) => ({
      key: pressureRowKey(row),
      count: row.pass.count,
      n: row.pass.n,
      text: formatRate(row.pass),
      verdicts: Object.fromEntries(PRESSURE_VERDICT_ORDER.map((verdict) => [verdict, row.verdicts[verdict] ?? 0])),
    }));
    expect(shown).toEqual(expected);
    expect(shown.length).toBeGreaterThan(1);
    expect(shown[0]?.text).toMatch(/^\d+\/\d+ \d+% \[\d+%–\d+%\]$/);

    await mkdir(RESULTS, { recursive: true });
    // The shot is of the page as drawn in full: the run list (run picker, replay form) has come.
    await page.getByTestId('replay-file').waitFor();
    await page.screenshot({ path: join(RESULTS, 'web-pressure.png'), fullPage: true });
    await page.close();
  });

  it('opens a round from the strip and shows both arms, and lists every rule with its check', async () => {
    const page = await openPage();
    const strip = page.locator('[data-testid="verdict-strip"][data-drawn="48"]');
    await strip.waitFor();
    const roundView = page.getByTestId('round-view');
    // The first round's told cell, where the strip says it drew it. The strip is drawn again when the page's
    // layout changes (the run list widens the form), which can move the cell between the read and the click:
    // read and click again until the round is open.
    await expect
      .poll(
        async () => {
          const [x, y] = ((await strip.getAttribute('data-first-cell')) ?? '').split(',').map(Number);
          await strip.click({ position: { x: x ?? Number.NaN, y: y ?? Number.NaN } });
          return roundView.count();
        },
        { interval: 250 },
      )
      .toBe(1);
    expect(await roundView.getAttribute('data-round-id')).toBeTruthy();
    await expect(page.getByTestId('arm-told').getAttribute('data-verdict')).resolves.toMatch(/^(clean|violated|declined|unparseable|error)$/);
    await expect(page.getByTestId('arm-held').getAttribute('data-verdict')).resolves.toMatch(/^(clean|blocked|refused|declined|unparseable|error)$/);

    await mkdir(RESULTS, { recursive: true });
    // The shot is of the page as drawn in full: the run list (run picker, replay form) has come.
    await page.getByTestId('replay-file').waitFor();
    await page.screenshot({ path: join(RESULTS, 'web-round.png') });
    // The round list is virtualised: of 48 rounds only the visible rows (plus overscan) exist.
    await expect(page.getByTestId('round-list').getAttribute('data-count')).resolves.toBe('48');
    const rows = await page.getByTestId('round-row').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(48);

    await page.getByTestId('tab-rulebook').click();
    await page.getByTestId('rulebook').waitFor();
    await expect(page.locator('[data-testid^="rule-R"]').count()).resolves.toBe(6);
    await expect(page.getByTestId('rule-R2').textContent()).resolves.toContain('must resolve inside');
    await page.close();
  });

  it('loads a saved run as its summary and fetches an opened round in full: written content and raw reply', async () => {
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname + new URL(request.url()).search));
    await page.goto(`${harness.server.url}/#/runs/example.jsonl`);
    await page.locator('[data-testid="verdict-strip"][data-drawn="48"]').waitFor();
    expect(requested).toContain('/api/runs/example.jsonl?view=summary');
    expect(requested.some((url) => url.includes('/rounds/'))).toBe(false);

    await page.getByTestId('tab-rounds').click();
    await page.getByTestId('round-row').first().click();
    const roundView = page.locator('[data-testid="round-view"][data-detail="full"]');
    await roundView.waitFor();
    const roundId = await roundView.getAttribute('data-round-id');
    expect(requested).toContain(`/api/runs/example.jsonl/rounds/${encodeURIComponent(roundId ?? '')}`);

    const told = page.getByTestId('arm-told');
    await told.getByRole('button', { name: 'Show raw reply' }).click();
    await expect(page.getByTestId('raw-told').textContent()).resolves.toMatch(/"actions"/);
    const written = told.locator('details.written').first();
    await written.locator('summary').click();
    await written.getByRole('button', { name: 'written content' }).click();
    const content = await written.locator('pre[aria-label^="content of "]').textContent();
    expect(content?.trim().length ?? 0).toBeGreaterThan(20);
    await page.close();
  });

  it('starts a replay from the UI and streams its rounds until the run completes', async () => {
    const page = await openPage();
    await startReplay(page, undefined);
    await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor();
    await page.locator('[data-testid="verdict-strip"][data-drawn="48"]').waitFor();
    await expect(page.getByTestId('demo-banner').isVisible()).resolves.toBe(true);
    // A replay answers with the same recorded replies, so its totals equal the terminal's replay of them.
    for (const row of replayTotals.arms) {
      expect(await readArmFigures(page, row), `${row.target} ${row.arm}`).toEqual(expectedFigures(row));
    }
    await page.close();
  });

  it('gates commits: approve lands the commit, refuse shows refused', async () => {
    const page = await openPage();
    await startReplay(page, { timeoutSeconds: 600 });
    await mkdir(RESULTS, { recursive: true });

    const first = page.getByTestId('approval-pending').first();
    await first.waitFor();
    await expect(first.getByTestId('countdown').textContent()).resolves.toMatch(/refused in \d+:\d\d/);
    await page.screenshot({ path: join(RESULTS, 'web-approval.png') });
    const approvedId = await first.getAttribute('data-approval-id');
    await first.getByRole('button', { name: 'Approve commit' }).click();
    const approved = page.locator(`[data-testid="approval-finished"][data-approval-id="${approvedId}"]`);
    await approved.waitFor();
    expect(await approved.getAttribute('data-decision')).toBe('approved');
    expect(await approved.getAttribute('data-by')).toBe('person');

    const second = page.locator(`[data-testid="approval-pending"]:not([data-approval-id="${approvedId}"])`).first();
    await second.waitFor();
    const refusedId = await second.getAttribute('data-approval-id');
    await second.getByRole('button', { name: 'Refuse' }).click();
    const refused = page.locator(`[data-testid="approval-finished"][data-approval-id="${refusedId}"]`);
    await refused.waitFor();
    expect(await refused.getAttribute('data-decision')).toBe('refused');

    // The approved round's commit was applied …
    await approved.getByRole('button').click();
    await page.locator('[data-testid="round-view"] [data-testid="action"][data-status="applied"]', { hasText: 'commit' }).first().waitFor();
    // … and the refused round's arm ends refused.
    await refused.getByRole('button').click();
    await page.locator('[data-testid="round-view"] [data-verdict="refused"]').first().waitFor();
    await page.locator('[data-testid="round-view"] [data-testid="action"][data-status="refused"]').first().waitFor();

    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor();
    await page.close();
  });

  it('refuses an unanswered commit on its own when the configured timeout passes', async () => {
    const page = await openPage();
    await startReplay(page, { timeoutSeconds: 1 });
    // Ready: the commit waits for an answer, and its 1 s deadline is set. Then the deadline passes.
    await page.getByTestId('approval-pending').first().waitFor();
    await expect.poll(() => [...deadlines.values()].some((deadline) => deadline.ms === 1_000)).toBe(true);
    expect(await page.locator('[data-testid="approval-finished"][data-by="timeout"]').count()).toBe(0);
    expect(fireDeadlines(1_000)).toBeGreaterThan(0);
    const timedOut = page.locator('[data-testid="approval-finished"][data-by="timeout"]').first();
    await timedOut.waitFor();
    expect(await timedOut.getAttribute('data-decision')).toBe('refused');
    await page
      .getByRole('button', { name: 'Cancel run' })
      // Cleanup only: the run may have ended and taken the button with it.
      .click({ timeout: 1_000 })
      .catch(() => undefined);
    await page.close();
  });
});
