import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage as openHarnessPage, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { computeTotals, parseRunFileText, reduceRunEvents } from '@holdfast/lab/store';
import { RATE_DEFINITIONS } from '@holdfast/lab/report';
import { compareTotals } from '../../packages/app/web/src/compare-totals.js';
import type { RoundState } from '@holdfast/lab/store';

let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let rounds: readonly RoundState[];

beforeAll(async () => {
  harness = await startWebHarness();
  browser = await launchChromium();
  rounds = reduceRunEvents(parseRunFileText(await readFile(join(harness.runsDir, 'example.jsonl'), 'utf8'), 'example.jsonl')).rounds.toArray();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const openPage = (hash: string): Promise<Page> => openHarnessPage(browser.context, harness.server.url, hash);

const roundInUrl = (page: Page) => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '').get('round');

describe('finding rounds: filters, search, sort and keys, all in the URL', () => {
  it('opens a filtered list from a link and counts what it shows', async () => {
    const violated = rounds.filter((round) => round.told?.verdict === 'violated' || round.held?.verdict === 'violated');
    expect(violated.length).toBeGreaterThan(0);
    expect(violated.length).toBeLessThan(rounds.length);
    const page = await openPage('#/runs/example.jsonl?tab=rounds&verdict=violated');
    const count = page.locator(`[data-testid="filter-count"][data-shown="${violated.length}"][data-total="${rounds.length}"]`);
    await count.waitFor();
    await expect(page.getByTestId('filter-verdict').inputValue()).resolves.toBe('violated');
    const first = page.getByTestId('round-row').first();
    await expect(first.getAttribute('data-round-id')).resolves.toBe(violated[0]?.roundId);

    // Narrow further by target, then search: the URL follows each change.
    const target = violated[0]?.target ?? '';
    await page.getByTestId('filter-target').selectOption(target);
    const byTarget = violated.filter((round) => round.target === target);
    await page.locator(`[data-testid="filter-count"][data-shown="${byTarget.length}"]`).waitFor();
    expect(new URL(page.url()).hash).toContain(`target=${encodeURIComponent(target)}`);
    await page.getByTestId('filter-search').fill('no-such-words-anywhere');
    await page.locator('[data-testid="filter-count"][data-shown="0"]').waitFor();
    expect(new URL(page.url()).hash).toContain('q=no-such-words-anywhere');
    await page.close();
  });

  it('keeps the open round and tab in the URL, so a reload shows the same round', async () => {
    const page = await openPage('#/runs/example.jsonl?tab=rounds');
    await page.getByTestId('round-row').nth(2).click();
    await page.locator('[data-testid="round-view"]').waitFor();
    // The full prompt of the round: the system message, then the repository with AGENTS.md and the ticket.
    await page.getByText('Full prompt of this round').click();
    await expect(page.locator('[data-testid="prompt-message"][data-role="user"] pre').textContent()).resolves.toContain('AGENTS.md');
    await expect(page.locator('[data-testid="prompt-message"][data-role="user"] pre').textContent()).resolves.toContain('## Ticket');
    const roundId = roundInUrl(page);
    expect(roundId).toBe(rounds[2]?.roundId);
    await page.reload();
    await page.locator(`[data-testid="round-view"][data-round-id="${roundId}"]`).waitFor();
    await expect(page.getByTestId('tab-rounds').getAttribute('aria-selected')).resolves.toBe('true');
    await page.close();
  });

  it('moves through the list with arrows, Home/End and j/k, and through the tabs with arrows', async () => {
    const page = await openPage(`#/runs/example.jsonl?tab=rounds&round=${encodeURIComponent(rounds[0]?.roundId ?? '')}`);
    const listbox = page.getByTestId('round-listbox');
    await page.locator(`[data-testid="round-view"][data-round-id="${rounds[0]?.roundId}"]`).waitFor();
    await listbox.focus();
    await page.keyboard.press('ArrowDown');
    await page.locator(`[data-testid="round-view"][data-round-id="${rounds[1]?.roundId}"]`).waitFor();
    await expect(listbox.getAttribute('aria-activedescendant')).resolves.toBe('round-option-1');
    await expect(page.locator('#round-option-1').getAttribute('aria-selected')).resolves.toBe('true');
    await page.keyboard.press('End');
    await page.locator(`[data-testid="round-view"][data-round-id="${rounds.at(-1)?.roundId}"]`).waitFor();
    await page.keyboard.press('Home');
    await page.locator(`[data-testid="round-view"][data-round-id="${rounds[0]?.roundId}"]`).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.locator(`[data-testid="round-view"][data-round-id="${rounds[2]?.roundId}"]`).waitFor();
    await page.keyboard.press('k');
    await page.locator(`[data-testid="round-view"][data-round-id="${rounds[1]?.roundId}"]`).waitFor();
    expect(roundInUrl(page)).toBe(rounds[1]?.roundId);

    // j typed into the search field is a letter, not a step.
    await page.getByTestId('filter-search').fill('');
    await page.getByTestId('filter-search').press('j');
    await expect(page.getByTestId('filter-search').inputValue()).resolves.toBe('j');

    await page.getByTestId('tab-rounds').focus();
    await page.keyboard.press('ArrowLeft');
    // The key selects the tab (drawn in the render it causes) and moves the focus to it in the same handler.
    await page.locator('[data-testid="tab-totals"][aria-selected="true"]').waitFor();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('tab-totals');
    await page.keyboard.press('End');
    await page.locator('[data-testid="tab-rulebook"][aria-selected="true"]').waitFor();
    await expect(page.getByTestId('tab-totals').getAttribute('tabindex')).resolves.toBe('-1');
    await page.close();
  });
});

describe('the strip has a table and the page fits a phone', () => {
  it('lists the strip as counts per target and arm; a count opens those rounds', async () => {
    const page = await openPage('#/runs/example.jsonl');
    const strip = page.locator('[data-testid="verdict-strip"][data-drawn="48"]');
    await strip.waitFor();
    await expect(strip.getAttribute('role')).resolves.toBe('img');
    await expect(strip.getAttribute('aria-label')).resolves.toMatch(/^Verdicts of 48 rounds\. /);
    // Violated cells carry a dark slash (the second encoding): its colour is on the canvas, drawn nowhere else.
    const slashPixels = await strip.evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
      let count = 0;
      for (let index = 0; index < data.length; index += 4)
        if (data[index] === 33 && data[index + 1] === 37 && data[index + 2] === 41 && data[index + 3] === 255) count += 1;
      return count;
    });
    expect(slashPixels).toBeGreaterThan(0);
    await expect(page.locator('.legend .swatch[data-verdict="violated"]').getAttribute('data-mark')).resolves.toBe('true');
    await page.getByText('Verdicts as a table').click();
    const round = rounds.find((candidate) => candidate.told?.verdict === 'violated');
    expect(round).toBeDefined();
    const expected = rounds.filter((candidate) => candidate.target === round?.target && candidate.told?.verdict === 'violated').length;
    const cell = page.getByTestId(`strip-count-${round?.target}-told-violated`);
    await expect(cell.getAttribute('data-value')).resolves.toBe(String(expected));
    await cell.getByRole('button').click();
    await page.locator(`[data-testid="filter-count"][data-shown="${expected}"]`).waitFor();
    const hash = new URL(page.url()).hash;
    expect(hash).toContain('verdict=violated');
    expect(hash).toContain('arm=told');
    await page.close();
  });

  it('has no horizontal scroll at 390 px, on the totals and on a round', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${harness.server.url}/#/runs/example.jsonl`);
    await page.locator('[data-testid="verdict-strip"][data-drawn="48"]').waitFor();
    await page.getByTestId('totals').waitFor();
    // The run list fills the run picker and the replay form, which can widen them: measured once it has come.
    await page.getByTestId('replay-file').waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await page.getByTestId('tab-rounds').click();
    await page.getByTestId('round-row').first().click();
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await page.close();
  });
});

describe('comparing runs and exporting the view', () => {
  it('sets two runs side by side per target × arm × rule, from a link', async () => {
    const totals = computeTotals(reduceRunEvents(parseRunFileText(await readFile(join(harness.runsDir, 'example.jsonl'), 'utf8'), 'example.jsonl')));
    const expected = compareTotals(totals, totals);
    const page = await openPage('#/runs/example.jsonl?tab=compare&vs=example.jsonl');
    await page.getByText('The differences as a table').click();
    await page.getByTestId('compare-table').waitFor();
    await expect(page.getByTestId('compare-row').count()).resolves.toBe(expected.length);
    const first = page.getByTestId('compare-row').first();
    await expect(first.getAttribute('data-measure')).resolves.toBe(expected[0]?.measure);
    await expect(first.textContent()).resolves.toContain('0 pp [');
    await expect(first.getAttribute('data-p')).resolves.toBe('1');
    await page.close();
  });

  it("charts told vs held per target: each bar and whisker is the totals' landed rate and interval", async () => {
    const totals = computeTotals(reduceRunEvents(parseRunFileText(await readFile(join(harness.runsDir, 'example.jsonl'), 'utf8'), 'example.jsonl')));
    const page = await openPage('#/runs/example.jsonl');
    await page.getByTestId('told-held-chart').waitFor();
    // The definitions next to the numbers are the terminal report's own sentences.
    for (const [key, text] of Object.entries(RATE_DEFINITIONS)) {
      await expect(page.getByTestId(`definition-${key}`).textContent()).resolves.toBe(`${text}.`);
    }
    for (const row of totals.arms) {
      const bar = page.getByTestId(`chart-${row.target}-${row.arm}`);
      await expect(bar.getAttribute('data-rate')).resolves.toBe(String(row.roundsLanded.rate));
      await expect(bar.getAttribute('data-low')).resolves.toBe(String(row.roundsLanded.low));
      await expect(bar.getAttribute('data-high')).resolves.toBe(String(row.roundsLanded.high));
    }
    await page.close();
  });

  it('downloads the filtered rounds as CSV, exactly the rows shown', async () => {
    const page = await openPage('#/runs/example.jsonl?tab=rounds&verdict=violated&arm=told');
    const shown = rounds.filter((round) => round.told?.verdict === 'violated');
    await page.locator(`[data-testid="filter-count"][data-shown="${shown.length}"]`).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(download.suggestedFilename()).toBe('example-rounds.csv');
    const path = await download.path();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('round,target,task,rep,told,told reason,held,held reason');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(shown.map((round) => round.roundId));
    await page.close();
  });
});
