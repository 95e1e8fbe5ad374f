import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArmResult, RunEvent } from '@holdfast/core/contract';
import { computeTotals, listRunFiles, openRunFile, readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import type { RunEventDraft } from '@holdfast/lab/store';

const ROUNDS = 5000;
const TIME = '2025-01-01T00:00:00.000Z';

function armResult(arm: 'told' | 'held', index: number): ArmResult {
  const violating = index % 3 === 0;
  const secret = { type: 'write' as const, path: `src/features/f${index}/config.ts`, content: `export const token = "sk-${index}-abcdefghijklmnop";\n` };
  const clean = { type: 'write' as const, path: `src/features/f${index}/index.ts`, content: 'export function feature() {\n  return 1;\n}\n'.repeat(8) };
  const test = { type: 'write' as const, path: `src/features/f${index}/index.test.ts`, content: "import { it } from 'vitest';\nit('works', () => {});\n" };
  const actions = violating ? [clean, test, secret] : [clean, test];
  const blocked = violating && arm === 'held';
  return {
    arm,
    verdict: violating ? (arm === 'told' ? 'violated' : 'blocked') : 'clean',
    reason: violating ? 'R1 SECRET: a credential literal in src/features/config.ts' : 'no check failed',
    parse: { kind: 'actions', method: 'json' },
    actions: actions.map((action, actionIndex) => {
      const violates = action === secret;
      return {
        index: actionIndex,
        action,
        status: violates && blocked ? ('blocked' as const) : ('applied' as const),
        violations: violates ? ['R1'] : [],
        ...(violates && blocked ? { rule: 'R1' } : {}),
      };
    }),
    checks: actions.flatMap((action, actionIndex) =>
      ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].map((rule) => ({
        rule,
        name: rule,
        actionIndex,
        ok: !(rule === 'R1' && action === secret),
        detail: `${rule} on ${action.path}`,
      })),
    ),
    generation: { raw: JSON.stringify({ actions }), usage: { inputTokens: 900, outputTokens: 300 }, latencyMs: 1200, attempts: 1 },
  };
}

function drafts(): RunEventDraft[] {
  const targets = ['model-a', 'model-b'];
  const tasks = Array.from({ length: 25 }, (_, index) => `task-${index}`);
  const list: RunEventDraft[] = [
    {
      type: 'run-start',
      version: 1,
      runId: 'bench',
      time: TIME,
      config: {
        targets,
        tasks,
        reps: ROUNDS / (targets.length * tasks.length),
        concurrency: 4,
        approve: 'auto',
        approvalTimeoutMs: 90_000,
        temperature: 0,
        sandbox: false,
      },
      rulebook: {
        version: 1,
        name: 'bench',
        rules: ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].map((id) => ({ id, name: id, prose: `Rule ${id}.`, check: { kind: 'scope' as const, allow: ['src/**'] } })),
        agents: [],
      },
      tasks: tasks.map((id) => ({ id, title: id, ticket: 'Add a feature.', tempts: ['R1'], files: { 'src/index.ts': 'export {};\n' } })),
      targets: targets.map((id) => ({ id, provider: 'replay' as const })),
    },
  ];
  for (let index = 0; index < ROUNDS; index++) {
    const round = {
      runId: 'bench',
      time: TIME,
      roundId: `round-${index}`,
      target: index % 2 === 0 ? 'model-a' : 'model-b',
      task: `task-${index % 25}`,
      rep: Math.floor(index / 50),
    };
    list.push({ type: 'round-start', ...round });
    list.push({ type: 'arm-end', ...round, result: armResult('told', index) });
    list.push({ type: 'arm-end', ...round, result: armResult('held', index) });
    if (index % 10 === 0) list.push({ type: 'totals', runId: 'bench', time: TIME, totals: { arms: [] } });
  }
  list.push({ type: 'run-end', runId: 'bench', time: TIME, status: 'completed' });
  return list;
}

/** The obvious reducer the real one replaces: copies the round array and index on every change. */
function naiveReduce(events: readonly RunEvent[]): number {
  let rounds: { roundId: string; told?: ArmResult; held?: ArmResult }[] = [];
  let index = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'round-start') {
      index = new Map(index).set(event.roundId, rounds.length);
      rounds = [...rounds, { roundId: event.roundId }];
    } else if (event.type === 'arm-end') {
      const position = index.get(event.roundId) ?? -1;
      rounds = rounds.map((round, at) => (at === position ? { ...round, [event.result.arm]: event.result } : round));
    }
  }
  return rounds.length;
}

function time<T>(work: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint();
  const value = work();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

async function timeAsync<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

function best<T>(runs: number, work: () => { value: T; ms: number }): { value: T; ms: number } {
  let fastest = work();
  for (let run = 1; run < runs; run++) {
    const next = work();
    if (next.ms < fastest.ms) fastest = next;
  }
  return fastest;
}

/**
 * The store at the size of a long run: 5,000 rounds (≈ 15.5k events). Reducing must stay far from
 * the O(n²) of copying every round per event; reading must validate every line.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-store-'));
  try {
    const path = join(dir, 'runs', 'bench.jsonl');
    const writer = openRunFile(path);
    const all = drafts();
    const written = time(() => all.map((draft) => writer.append(draft)));
    writer.close();
    const events = written.value;
    const size = statSync(path).size;
    const megabytes = size / 1024 / 1024;
    print(
      `store: write ${events.length} events (${megabytes.toFixed(1)} MB), validated and appended one by one: ${(events.length / (written.ms / 1000)).toFixed(0)} events/s`,
    );

    const reduced = best(5, () => time(() => reduceRunEvents(events)));
    const naive = best(3, () => time(() => naiveReduce(events)));
    print(
      `store: reduce ${events.length} events into ${reduced.value.rounds.length} rounds: ${(events.length / (reduced.ms / 1000)).toFixed(0)} events/s ` +
        `(${reduced.ms.toFixed(1)} ms; copy-everything baseline ${naive.ms.toFixed(1)} ms, ${(naive.ms / reduced.ms).toFixed(1)}× slower)`,
    );

    const totals = best(5, () => time(() => computeTotals(reduced.value)));
    print(`store: totals over ${ROUNDS} rounds × 2 arms: ${totals.ms.toFixed(1)} ms`);

    await readRunFile(path);
    let read = await timeAsync(() => readRunFile(path));
    for (let run = 0; run < 2; run++) {
      const next = await timeAsync(() => readRunFile(path));
      if (next.ms < read.ms) read = next;
    }
    const parseOnly = best(3, () =>
      time(
        () =>
          readFileSync(path, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as unknown).length,
      ),
    );
    print(
      `store: read + validate ${megabytes.toFixed(1)} MB (${read.value.events.length} events, ${read.value.problems.length} problems): ${(megabytes / (read.ms / 1000)).toFixed(1)} MB/s ` +
        `(JSON.parse-only baseline ${(megabytes / (parseOnly.ms / 1000)).toFixed(1)} MB/s; validation costs ${(read.ms / parseOnly.ms).toFixed(1)}×)`,
    );

    const listed = await timeAsync(() => listRunFiles(join(dir, 'runs')));
    print(`store: list the folder (first + last line of a ${megabytes.toFixed(1)} MB file): ${listed.ms.toFixed(2)} ms, status ${listed.value[0]?.status}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
