import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { computeTotals, parseRunFileText, reduceRunEvents } from '@holdfast/lab/store';
import type { RunState } from '@holdfast/lab/store';

/**
 * The run page as a team lead reads it, with the SHIPPED holdfast.config.yaml and the shipped
 * example runs: headline first, a chart whose labels fit, leaks as loud as violations, agent and
 * loop rounds as one story, compare of any two runs, and every view at 390 px without sideways
 * scroll. Screenshots at 1280 and 390 px go to SHOTS, to be looked at.
 */
const SHOTS = process.env['HOLDFAST_SHOTS'] ?? join(process.cwd(), 'test-results', 'web-views');
const RUNS = ['example.jsonl', 'example-loop.jsonl', 'example-agent.jsonl'] as const;

let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const states = new Map<string, RunState>();

/** A port on 127.0.0.1 that nothing listens on: the shipped config's remote targets point there, so no probe leaves the machine. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  const port = await closedPort();
  const shipped = await readFile(join(process.cwd(), 'holdfast.config.yaml'), 'utf8');
  const configText = shipped.replace(/baseUrl: https:\/\/[^/\s]+/g, `baseUrl: http://127.0.0.1:${port}`);
  expect(configText).not.toBe(shipped);
  harness = await startWebHarness({ configText, runFiles: RUNS.slice(1).map((name) => join(process.cwd(), 'runs', name)) });
  browser = await launchChromium();
  for (const name of RUNS) states.set(name, reduceRunEvents(parseRunFileText(await readFile(join(harness.runsDir, name), 'utf8'), name)));
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function open(hash: string, width = 1280): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${harness.server.url}/${hash}`);
  await page.getByTestId('told-held-chart').waitFor();
  // The form is drawn once the shipped configuration (its seven targets probed) has come.
  await page.getByTestId('selection').waitFor();
  // The run list fills the run picker and the replay form (which can widen them): what is measured has come.
  await page.getByTestId('replay-file').waitFor();
  return page;
}

const sideways = (page: Page) => page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);

function stateOf(name: string): RunState {
  const state = states.get(name);
  if (state === undefined) throw new Error(`${name} not read`);
  return state;
}

describe('the run page reads top down', () => {
  it('opens every shipped run with the headline, then the chart, then the details, and the results before the form on a phone', async () => {
    for (const name of RUNS) {
      for (const width of [1280, 390]) {
        const page = await open(`#/runs/${name}`, width);
        const top = async (testId: string) => (await page.getByTestId(testId).first().boundingBox())?.y ?? Number.NaN;
        const headline = await top('headline');
        const chart = await top('told-held-chart');
        const strip = await top('verdict-strip');
        expect(headline, name).toBeLessThan(chart);
        expect(chart, name).toBeLessThan(strip);
        const main = await page.locator('main').boundingBox();
        const form = await page.getByTestId('selection').boundingBox();
        if (width === 390) expect(main?.y ?? Number.NaN, `${name}: results before the form`).toBeLessThan(form?.y ?? Number.NaN);
        // The headline is the reports' sentence, per target.
        const totals = computeTotals(stateOf(name));
        for (const target of new Set(totals.arms.map((row) => row.target))) {
          await expect(page.getByTestId(`headline-${target}`).textContent()).resolves.toMatch(/^Told: a violation landed in \d+ of \d+ rounds/);
        }
        await page.screenshot({ path: join(SHOTS, `${name.replace('.jsonl', '')}-${width}.png`), fullPage: true });
        await page.close();
      }
    }
  });

  it('draws attempts and landings, told vs held, with every label inside the chart at 1280 and 390 px', async () => {
    for (const name of RUNS) {
      const totals = computeTotals(stateOf(name));
      for (const width of [1280, 390]) {
        const page = await open(`#/runs/${name}`, width);
        for (const row of totals.arms) {
          const attempted = page.getByTestId(`chart-${row.target}-${row.arm}-attempted`);
          await expect(attempted.getAttribute('data-count')).resolves.toBe(String(row.roundsWithAttempt.count));
          await expect(page.getByTestId(`chart-${row.target}-${row.arm}`).getAttribute('data-count')).resolves.toBe(String(row.roundsLanded.count));
          // A landed violation is an attempt: the chart never shows more landed than attempted.
          expect(row.roundsWithAttempt.count, `${name} ${row.target} ${row.arm}`).toBeGreaterThanOrEqual(row.roundsLanded.count);
        }
        const boxes = await page.getByTestId('told-held-chart').evaluate((chart) => {
          const outer = chart.getBoundingClientRect();
          return [...chart.querySelectorAll('[data-testid="chart-label"]')].map((label) => {
            const box = label.getBoundingClientRect();
            return {
              text: label.textContent ?? '',
              inside: box.left >= outer.left && box.right <= outer.right && box.top >= outer.top && box.bottom <= outer.bottom,
              whole: label.scrollWidth <= label.clientWidth + 1,
              visible: box.right <= window.innerWidth,
            };
          });
        });
        expect(boxes.length).toBe(totals.arms.length * 2);
        for (const box of boxes) {
          expect(box.text, `${name} at ${width}`).toMatch(/^\d+\/\d+ \d+% \[\d+%–\d+%\]$/);
          expect(box, `${name} at ${width}: ${box.text}`).toEqual({ text: box.text, inside: true, whole: true, visible: true });
        }
        await page.close();
      }
    }
  });

  it('draws every chart to one scale: bar widths measured against their values at 1280 and 390 px', async () => {
    for (const name of RUNS) {
      for (const width of [1280, 390]) {
        const page = await open(`#/runs/${name}?tab=totals&vs=${RUNS[0]}`, width);
        // Told vs held: one track width for every row of the chart, each bar its rate of that track.
        const bars = await page.getByTestId('told-held-chart').evaluate((chart) =>
          [...chart.querySelectorAll<HTMLElement>('.chart-row')].map((row) => ({
            id: row.dataset['testid'] ?? '',
            rate: row.dataset['rate'] === undefined ? undefined : Number(row.dataset['rate']),
            track: row.querySelector('.chart-track')?.getBoundingClientRect().width ?? Number.NaN,
            bar: row.querySelector('.chart-bar')?.getBoundingClientRect().width,
          })),
        );
        expect(bars.length, name).toBeGreaterThan(0);
        const track = bars[0]!.track;
        expect(track, `${name} at ${width}`).toBeGreaterThan(40);
        for (const bar of bars) {
          expect(Math.abs(bar.track - track), `${name} at ${width}: ${bar.id} track ${bar.track} vs ${track}`).toBeLessThanOrEqual(0.5);
          if (bar.rate === undefined) continue;
          const expected = bar.rate === 0 ? 2 : bar.rate * track;
          expect(
            Math.abs((bar.bar ?? Number.NaN) - expected),
            `${name} at ${width}: ${bar.id} rate ${bar.rate} bar ${bar.bar} of ${track}`,
          ).toBeLessThanOrEqual(1);
        }
        // The totals table's rate bars: one 0–100% axis of one width, each dot at its rate.
        const dots = await page.locator('span.rate[data-testid^="rate-"]').evaluateAll((rates) =>
          rates.map((rate) => {
            const svg = rate.querySelector('svg')!.getBoundingClientRect();
            const dot = rate.querySelector('circle')?.getBoundingClientRect();
            return {
              id: rate.getAttribute('data-testid') ?? '',
              rate: Number(rate.getAttribute('data-count')) / Number(rate.getAttribute('data-n')),
              axis: svg.width,
              at: dot === undefined ? undefined : dot.left + dot.width / 2 - svg.left,
            };
          }),
        );
        expect(dots.length, name).toBeGreaterThan(0);
        for (const dot of dots) {
          expect(dot.axis, dot.id).toBe(dots[0]!.axis);
          if (dot.at === undefined) continue;
          // RateBar draws on a 160-unit axis (the dot kept 3 units inside its ends), scaled to the box it is given.
          const expected = (Math.min(157, Math.max(3, dot.rate * 160)) * dot.axis) / 160;
          expect(Math.abs(dot.at - expected), `${name} at ${width}: ${dot.id} rate ${dot.rate} dot at ${dot.at} of ${dot.axis}`).toBeLessThanOrEqual(1);
        }
        // Compare: every difference on one −100…+100 pp axis of one width.
        await page.goto(`${harness.server.url}/#/runs/${name}?tab=compare&vs=${name === RUNS[0] ? RUNS[1] : RUNS[0]}`);
        await page.getByTestId('difference-chart').waitFor();
        const points = await page.getByTestId('difference-chart').evaluate((chart) =>
          [...chart.querySelectorAll<HTMLElement>('[data-testid="difference-row"]')].map((row) => {
            const track = row.querySelector('.difference-track')!.getBoundingClientRect();
            const point = row.querySelector('.difference-point')?.getBoundingClientRect();
            return {
              difference: row.dataset['difference'] === undefined ? undefined : Number(row.dataset['difference']),
              track: track.width,
              at: point === undefined ? undefined : point.left + point.width / 2 - track.left,
            };
          }),
        );
        expect(points.length, name).toBeGreaterThan(0);
        for (const point of points) {
          expect(Math.abs(point.track - points[0]!.track), `${name} at ${width}: difference track`).toBeLessThanOrEqual(0.5);
          if (point.difference === undefined || point.at === undefined) continue;
          const expected = ((point.difference + 1) / 2) * point.track;
          expect(Math.abs(point.at - expected), `${name} at ${width}: difference ${point.difference} at ${point.at} of ${point.track}`).toBeLessThanOrEqual(1);
        }
        await page.close();
      }
    }
  });

  it('shows a gate leak as loudly as a violation: headline, chart and the round itself', async () => {
    const state = stateOf('example-agent.jsonl');
    const leak = state.rounds.toArray().find((round) => round.held?.verdict === 'evaded');
    expect(leak).toBeDefined();
    const page = await open('#/runs/example-agent.jsonl');
    const card = page.getByTestId(`headline-card-${leak?.target}`);
    await expect(card.getAttribute('data-leaks')).resolves.toBe('1');
    await expect(card.getAttribute('class')).resolves.toContain('leaked');
    await expect(page.getByTestId(`headline-leaks-${leak?.target}`).textContent()).resolves.toContain('GATE LEAK');
    const heldLanded = page.getByTestId(`chart-${leak?.target}-held`);
    await expect(heldLanded.getAttribute('class')).resolves.toContain('bad');
    await expect(heldLanded.textContent()).resolves.toContain('GATE LEAK');
    // The leak's colour is the violation's: the same red on both.
    const colour = (testId: string) => page.getByTestId(testId).evaluate((element) => getComputedStyle(element.querySelector('b') ?? element).color);
    const recovering = state.rounds.toArray().find((round) => round.told?.verdict === 'violated');
    await expect(colour(`headline-leaks-${leak?.target}`)).resolves.toBe(await colour(`headline-told-${recovering?.target}`));
    await page.goto(`${harness.server.url}/#/runs/example-agent.jsonl?tab=rounds&round=${encodeURIComponent(leak?.roundId ?? '')}`);
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();
    const landed = page.getByTestId('arm-held').getByTestId('session-landed');
    await expect(landed.textContent()).resolves.toMatch(/^Gate leak: 1 violation landed despite the gate/);
    await page.screenshot({ path: join(SHOTS, 'agent-leak-round-1280.png'), fullPage: true });
    await page.close();
  });
});

describe('agent and loop rounds tell one story', () => {
  it('a loop round: a timeline of calls with readable paths, commands and diffs, each decision, what landed and why the task is done', async () => {
    const state = stateOf('example-loop.jsonl');
    const round = state.rounds.toArray().find((candidate) => candidate.held?.verdict === 'recovered');
    expect(round).toBeDefined();
    const session = round?.held?.session;
    const page = await open(`#/runs/example-loop.jsonl?tab=rounds&round=${encodeURIComponent(round?.roundId ?? '')}`);
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();
    const held = page.getByTestId('arm-held');
    const calls = held.getByTestId('call');
    await expect(calls.count()).resolves.toBe(session?.calls.length);
    for (const [index, call] of (session?.calls ?? []).entries()) await expect(calls.nth(index).getAttribute('data-decision')).resolves.toBe(call.decision);
    const timeline = (await held.getByTestId('timeline').textContent()) ?? '';
    // Arguments are read, not dumped: no JSON object of the model's input is shown as text.
    expect(timeline).not.toMatch(/\{"(path|command|message|content)"/);
    const write = session?.calls.find((call) => call.actions.some((action) => action.type === 'write'));
    const written = write?.actions.find((action) => action.type === 'write');
    expect(timeline).toContain(written?.type === 'write' ? written.path : 'a write');
    const run = session?.calls.flatMap((call) => call.actions).find((action) => action.type === 'run');
    expect(timeline).toContain(`$ ${run?.type === 'run' ? run.cmd : 'a command'}`);
    const diff = held.getByTestId('call-diff').first();
    await diff.locator('summary').click();
    await expect(diff.locator('.diff-added').count()).resolves.toBeGreaterThan(0);
    await expect(held.getByTestId('session-landed').textContent()).resolves.toContain('nothing that breaks a rule');
    await expect(held.getByTestId('session-task').textContent()).resolves.toMatch(/^yes: `npm test` exited 0/);
    await expect(held.getByTestId('session-end').textContent()).resolves.toContain(
      `${session?.calls.length} tool calls seen by holdfast · ${session?.turns} turns`,
    );
    await page.screenshot({ path: join(SHOTS, 'loop-round-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 900 });
    // The strip is redrawn to the new width when its resize observer reports it, after the viewport changed.
    await expect.poll(() => sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, 'loop-round-390.png'), fullPage: true });
    await page.close();
  });

  it('an agent round: no "0 turns" or bare "No tool calls" beside what landed, and the attempt counts agree with what landed', async () => {
    const state = stateOf('example-agent.jsonl');
    const round = state.rounds.toArray().find((candidate) => candidate.told?.verdict === 'violated' && candidate.held?.verdict === 'recovered');
    expect(round).toBeDefined();
    const page = await open(`#/runs/example-agent.jsonl?tab=rounds&round=${encodeURIComponent(round?.roundId ?? '')}`);
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();
    const told = page.getByTestId('arm-told');
    await expect(told.getByTestId('session-end').textContent()).resolves.not.toMatch(/\b0 turns?\b/);
    await expect(told.getByTestId('no-calls').textContent()).resolves.toContain('what landed is read from the repository');
    await expect(told.getByTestId('session-landed').getAttribute('data-count')).resolves.toBe('1');
    const held = page.getByTestId('arm-held');
    await expect(held.locator('[data-testid="call"][data-decision="blocked"]').count()).resolves.toBe(1);
    await expect(held.getByTestId('call-action').first().textContent()).resolves.toContain('src/features/checkout/tax.ts');
    await page.getByTestId('tab-totals').click();
    const attempted = page.getByTestId(`rate-${round?.target}-told-roundsWithAttempt`);
    const landed = page.getByTestId(`rate-${round?.target}-told-roundsLanded`);
    await expect(attempted.getAttribute('data-count')).resolves.toBe('1');
    await expect(landed.getAttribute('data-count')).resolves.toBe('1');
    await page.close();
  });
});

describe('compare any two runs', () => {
  it('sets two shipped runs with no target in common against each other, charts the differences, filters the changed and sorts by significance', async () => {
    // The plan-mode example (16 rounds a target) against the agent example (1 round a target): no target in common.
    const page = await open('#/runs/example.jsonl?tab=compare&vs=example-agent.jsonl');
    await page.getByTestId('compare-pair').waitFor();
    await page.getByTestId('difference-chart').waitFor();
    // A plan run against an agent run: said in words above the figures.
    const modes = page.getByTestId('compare-modes');
    await expect(modes.getAttribute('data-mode-a')).resolves.toBe('plan');
    await expect(modes.getAttribute('data-mode-b')).resolves.toBe('agent');
    await expect(modes.textContent()).resolves.toContain('A in plan mode (one reply per arm), B in agent mode');
    const rows = page.getByTestId('difference-row');
    expect(await rows.count()).toBeGreaterThan(0);
    // Other targets: the rows follow the pair, named once above them.
    await page.getByTestId('compare-target-a').selectOption('demo-hasty');
    await page.getByTestId('compare-target-b').selectOption('demo-agent-careful');
    await page.locator('[data-testid="difference-chart"] figcaption', { hasText: 'demo-hasty vs demo-agent-careful' }).waitFor();
    const total = await rows.count();
    expect(total).toBeGreaterThan(0);
    await expect(page.getByTestId('compare-count').getAttribute('data-total')).resolves.toBe(String(total));
    // One verdict per row, Fisher's: a row is marked differing exactly when the p it prints is below 0.05, and says so.
    const verdicts = await rows.evaluateAll((items) =>
      items.map((item) => ({ p: Number(item.getAttribute('data-p')), differs: item.getAttribute('data-differs'), text: item.textContent ?? '' })),
    );
    for (const verdict of verdicts) {
      expect(verdict.differs, verdict.text).toBe(String(verdict.p < 0.05));
      if (!verdict.text.includes('nothing to compare')) expect(verdict.text).toContain(verdict.p < 0.05 ? '· differs' : '· no clear difference');
    }
    const changedCount = verdicts.filter((verdict) => verdict.differs === 'true').length;
    // 16 of 16 told rounds landed a violation against 0 of 1: Newcombe's interval leaves out 0 but Fisher's p is 0.059, so
    // that row is not marked (it was, beside its p, when the interval decided); with B's one round no row differs.
    const intervals = await rows.evaluateAll((items) => items.map((item) => [Number(item.getAttribute('data-low')), Number(item.getAttribute('data-high'))]));
    expect(intervals.some(([low, high]) => (low ?? 0) > 0 || (high ?? 0) < 0)).toBe(true);
    expect(changedCount).toBe(0);
    await page.getByTestId('compare-sort').selectOption('significance');
    await expect
      .poll(async () => {
        const ps = await rows.evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-p'))));
        return ps.every((p, index) => index === 0 || (ps[index - 1] ?? 0) <= p) && new Set(ps).size > 1;
      })
      .toBe(true);
    await page.getByTestId('compare-changed-only').check();
    await page.locator(`[data-testid="compare-count"][data-shown="${changedCount}"][data-total="${total}"]`).waitFor();
    await expect(page.locator('[data-testid="difference-row"][data-differs="false"]').count()).resolves.toBe(0);
    await page.screenshot({ path: join(SHOTS, 'compare-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByTestId('compare-changed-only').uncheck();
    // Every row is back, and the strip is redrawn to the new width when its resize observer reports it.
    await page.locator(`[data-testid="compare-count"][data-shown="${total}"][data-total="${total}"]`).waitFor();
    await expect.poll(() => sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, 'compare-390.png'), fullPage: true });
    await page.close();
  });

  it('offers a run that is still running', async () => {
    const page = await open('#/runs/example-loop.jsonl');
    // A replay with the human gate on: its first commit waits for a person, so the run is still running.
    await page.getByTestId('human-gate').check();
    await page.getByTestId('approval-timeout').fill('3600');
    await page.getByTestId('replay-file').selectOption('example.jsonl');
    await page.getByTestId('start-replay').click();
    await page.waitForURL(/#\/live\//);
    await page.goto(`${harness.server.url}/#/runs/example-loop.jsonl?tab=compare`);
    const running = page.getByTestId('compare-running');
    await running.waitFor({ state: 'attached' });
    await expect(running.textContent()).resolves.toMatch(/\(running, \d+ rounds\)$/);
    await page.getByTestId('compare-picker').selectOption((await running.getAttribute('value')) ?? '');
    await page.getByTestId('difference-chart').waitFor();
    await page.close();
  });
});

describe('every view fits a phone', () => {
  it('has no horizontal scroll at 390 px on every tab of every shipped run, with a round open', async () => {
    for (const name of RUNS) {
      const state = stateOf(name);
      const round = state.rounds.toArray().find((candidate) => candidate.told?.verdict === 'violated') ?? state.rounds.at(0);
      const page = await open(`#/runs/${name}`, 390);
      for (const tab of ['totals', 'rounds', 'compare', 'rulebook'] as const) {
        const query =
          tab === 'rounds' ? `?tab=rounds&round=${encodeURIComponent(round?.roundId ?? '')}` : tab === 'compare' ? `?tab=compare&vs=${RUNS[0]}` : `?tab=${tab}`;
        // Only the hash changes: the page stays, and what it shows follows the hashchange event, after goto returns.
        await page.goto(`${harness.server.url}/#/runs/${name}${query}`);
        await page.locator(`[data-testid="tab-${tab}"][aria-selected="true"]`).waitFor();
        await page.getByTestId('told-held-chart').waitFor();
        if (tab === 'totals') await page.getByTestId('totals').waitFor();
        if (tab === 'rounds') await page.locator(`[data-testid="round-view"][data-round-id="${round?.roundId}"][data-detail="full"]`).waitFor();
        if (tab === 'compare') await page.getByTestId('difference-chart').waitFor();
        if (tab === 'rulebook') await page.getByTestId('rulebook').waitFor();
        await page.getByTestId('selection').waitFor();
        await expect(sideways(page), `${name} ${tab}`).resolves.toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(SHOTS, `${name.replace('.jsonl', '')}-${tab}-390.png`), fullPage: true });
      }
      await page.close();
    }
  });
});
