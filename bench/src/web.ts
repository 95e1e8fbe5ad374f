import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArmResult, RunEvent } from '@holdfast/core/contract';
import { projectRoot } from '@holdfast/app/test-support';
import { computeTotals, parseRunFileText, reduceRunEvents } from '@holdfast/lab/store';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';

const TARGET_ROUNDS = 5000;
const SAMPLES = 5;
const TARGET_MS = 1500;

/**
 * A run of at least `rounds` rounds made of the shipped example's real arm results: the same
 * targets and tasks, with repetitions raised until the run is big enough. Every round reuses the
 * recorded told/held results of the example round with the same target and task.
 */
export function scaleRun(example: readonly RunEvent[], rounds: number): RunEvent[] {
  const start = example.find((event) => event.type === 'run-start');
  if (start?.type !== 'run-start') throw new Error('the example run has no run-start');
  const results = new Map<string, { told?: ArmResult; held?: ArmResult }>();
  for (const event of example) {
    if (event.type !== 'arm-end') continue;
    const key = `${event.target}\u0000${event.task}`;
    const entry = results.get(key) ?? {};
    if (entry[event.result.arm] === undefined) entry[event.result.arm] = event.result;
    results.set(key, entry);
  }
  const { targets, tasks } = start.config;
  const reps = Math.ceil(rounds / (targets.length * tasks.length));
  const runId = 'run-bench-5000';
  const time = start.time;
  const events: RunEvent[] = [{ ...start, runId, seq: 0, config: { ...start.config, reps } }];
  const push = (event: RunEvent): void => {
    events.push({ ...event, seq: events.length });
  };
  for (let rep = 0; rep < reps; rep++) {
    for (const task of tasks) {
      for (const target of targets) {
        const roundId = `${target}/${task}/${rep}`;
        const key = { seq: 0, time, runId, roundId, target, task, rep };
        push({ ...key, type: 'round-start' });
        const recorded = results.get(`${target}\u0000${task}`);
        for (const arm of ['told', 'held'] as const) {
          const result = recorded?.[arm];
          if (result !== undefined) push({ ...key, type: 'arm-end', result });
        }
      }
    }
  }
  const state = reduceRunEvents(events);
  push({ seq: 0, time, runId, type: 'totals', totals: computeTotals(state) });
  push({ seq: 0, time, runId, type: 'run-end', status: 'completed' });
  return events;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Time from navigation to the verdict strip being painted with every round and the totals being in
 * the DOM, in headless Chromium against the real server and the production build.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const examplePath = join(projectRoot(), 'runs', 'example.jsonl');
  const example = parseRunFileText(await readFile(examplePath, 'utf8'), examplePath);
  const big = scaleRun(example, TARGET_ROUNDS);
  const bigRounds = reduceRunEvents(big).rounds.length;
  const work = await mkdtemp(join(tmpdir(), 'holdfast-bench-web-'));
  const bigPath = join(work, 'bench-5000.jsonl');
  await writeFile(bigPath, `${big.map((event) => JSON.stringify(event)).join('\n')}\n`);
  const exampleRounds = reduceRunEvents(example).rounds.length;

  const harness = await startWebHarness({ runFiles: [bigPath] });
  const browser = await launchChromium();
  try {
    interface Sample {
      inPage: number;
      wall: number;
      /** When the app asked for the run (after its script loaded and ran). */
      boot: number;
      /** Download and validation of every line, overlapped. */
      load: number;
      reduce: number;
    }
    const measure = async (name: string, rounds: number): Promise<Sample> => {
      const page = await browser.context.newPage();
      const began = performance.now();
      await page.goto(`${harness.server.url}/#/runs/${name}`);
      const inPage = await page.waitForFunction(
        (expected) => {
          const strip = document.querySelector(`[data-testid="verdict-strip"][data-drawn="${expected}"]`);
          const totals = document.querySelector('[data-testid="totals"] [data-testid^="rate-"]');
          return strip !== null && totals !== null ? performance.now() : false;
        },
        rounds,
        { polling: 'raf', timeout: 60_000 },
      );
      const wall = performance.now() - began;
      const value = Number(await inPage.jsonValue());
      const phases = await page.evaluate(() => {
        const find = (measureName: string) => performance.getEntriesByName(measureName, 'measure')[0];
        return {
          boot: find('holdfast:load')?.startTime ?? Number.NaN,
          load: find('holdfast:load')?.duration ?? Number.NaN,
          reduce: find('holdfast:reduce')?.duration ?? Number.NaN,
        };
      });
      await page.close();
      return { inPage: value, wall, ...phases };
    };
    // One warm-up each, so the first sample does not pay for Chromium's cold start.
    await measure('example.jsonl', exampleRounds);
    await measure('bench-5000.jsonl', bigRounds);
    const smallSamples: Sample[] = [];
    const largeSamples: Sample[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) {
      smallSamples.push(await measure('example.jsonl', exampleRounds));
      largeSamples.push(await measure('bench-5000.jsonl', bigRounds));
    }
    const small = smallSamples.map((sample) => sample.inPage);
    const large = largeSamples.map((sample) => sample.inPage);
    const largeWall = largeSamples.map((sample) => sample.wall);
    const phase = (samples: readonly Sample[], key: 'boot' | 'load' | 'reduce') => median(samples.map((sample) => sample[key])).toFixed(0);
    const bigSize = (await readFile(bigPath)).length;
    print(`web: navigation → strip + totals drawn (headless Chromium, production build, median of ${SAMPLES})`);
    print(`  example run, ${exampleRounds} rounds:            ${median(small).toFixed(0)} ms (baseline)`);
    print(
      `  ${bigRounds}-round run (${(bigSize / 1e6).toFixed(1)} MB JSONL): ${median(large).toFixed(0)} ms in page, ${median(largeWall).toFixed(0)} ms wall` +
        ` · ${(median(large) / median(small)).toFixed(1)}× baseline · target < ${TARGET_MS} ms: ${median(large) < TARGET_MS ? 'met' : 'MISSED'}`,
    );
    for (const [label, samples] of [
      ['example', smallSamples],
      [`${bigRounds} rounds`, largeSamples],
    ] as const) {
      print(
        `  phases, ${label}: app asks for the run at ${phase(samples, 'boot')} ms · download + parse + validate ${phase(samples, 'load')} ms · reduce ${phase(samples, 'reduce')} ms · the rest is render and paint`,
      );
    }
  } finally {
    await browser.close();
    await harness.close();
    await rm(work, { recursive: true, force: true });
  }
}
