import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { deadlineMs, HOOK_TIMEOUT_SECONDS, hookEntryPath, sessionMirrorFolder } from '@holdfast/gate';
import { NODE_LINES, agentCacheRoot, agentClientFolder } from '@holdfast/lab/harness';
import { runSizeBench } from './gate-size.js';
import type { BenchContext } from './index.js';

/** Rounds on this machine's Node, and on each other Node line (fewer, so the bench ends in bounded time). HOLDFAST_BENCH_GATE_ROUNDS=5 while developing. */
const RUNS = Number(process.env['HOLDFAST_BENCH_GATE_ROUNDS'] ?? 21);
const LINE_RUNS = Math.min(RUNS, 11);
const TARGET = 1.5;

/** A Node line the hook is timed on: this machine's (label '') or one from the agent cache. */
interface NodeLine {
  /** What a figure's name carries after the call kind (` on Node 24.22.3`). */
  readonly label: string;
  readonly version: string;
  readonly node: string;
  readonly runs: number;
}

/** CPU time (user + system, in ms) of this process's waited-for children so far: a child's own children count too. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // cutime and cstime (fields 16 and 17 of proc(5)), in clock ticks of 10 ms.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

function run(args: readonly string[], input: string, node: string = process.execPath): Sample {
  const cpu = childrenCpuMs();
  const start = process.hrtime.bigint();
  const result = spawnSync(node, args, { input, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  if (result.stdout.includes('"deny"')) throw new Error(`the bench's call was refused: ${result.stdout}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpu };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Instructions executed by a command and every process it starts (callgrind counts them, whatever the load). */
function instructions(args: readonly string[], input: string): number {
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-bench-callgrind-'));
  try {
    spawnSync(
      'valgrind',
      ['--tool=callgrind', '--trace-children=yes', `--callgrind-out-file=${folder}/out.%p`, `--log-file=${folder}/log.%p`, process.execPath, ...args],
      { input },
    );
    return readdirSync(folder)
      .filter((name) => name.startsWith('log.'))
      .map((name) => /Collected : (\d+)/.exec(readFileSync(join(folder, name), 'utf8'))?.[1])
      .reduce((sum, count) => sum + Number(count ?? 0), 0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** One cold decision against `node -e 0` of the same Node, as the bench runner's figure (value, baseline, ratio, target, met/missed). */
function figureOf(name: string, value: number, base: number, unit: string, baseName = 'node -e 0') {
  return { name, value, unit, baseline: { name: baseName, value: base }, better: 'lower' as const, target: { on: 'ratio' as const, atMost: TARGET } };
}

/** A case's median wall time and mean CPU time, each against its line's node -e 0 (nothing when the case has no samples). */
function reportTimes(
  figure: (input: ReturnType<typeof figureOf>) => void,
  label: string,
  samples: readonly Sample[],
  baseWall: number,
  baseCpu: number,
  base: { readonly name: string; readonly runs: number },
): void {
  if (samples.length === 0) return;
  figure(figureOf(`${label}, wall time (median of ${base.runs})`, median(samples.map((sample) => sample.wallMs)), baseWall, 'ms', base.name));
  figure(figureOf(`${label}, CPU time of the process tree (mean)`, mean(samples.map((sample) => sample.cpuMs)), baseCpu, 'ms', base.name));
}

/**
 * The hook runs as a fresh process on every tool call, started the way the installed command starts
 * it (the bundled entry dist/hook-bundle/hook.cjs, with its deadline), in a git repository. One cold decision
 * for each kind of call — a clean Write, a read-only Bash command, a test run (snapshotted for the
 * after-the-fact check), a commit (judged by the order rule's pattern) — against `node -e 0` measured
 * interleaved in the same run, so machine load hits all alike. A commit is measured twice: after the
 * test command every earlier round ran (the pattern's answer for it is kept between hook processes),
 * and after a test command no call matched before (the order rule's pattern runs: the hook loads re2js and
 * compiles the pattern). Each call has its own tool_use_id and
 * its PostToolUse follows (untimed), as an agent sends them. Reported: the median wall time, the CPU
 * time of the process tree (git included), and with HOLDFAST_BENCH_INSTRUCTIONS=1 and valgrind on the
 * machine, the instructions executed (callgrind; the same whatever else the machine is doing).
 * Every call kind is timed on each Node line: this machine's Node (21 rounds) and each line in the
 * agent cache (Node 22 and 24, 11 rounds each), every line against its own `node -e 0`, all lines
 * interleaved in the same rounds; then the hook at 30, 2,000 and 20,000 files (gate-size.ts).
 */
export async function runBench(print: (line: string) => void, context?: BenchContext): Promise<void> {
  // The hook runs a project's rulebook or refuses; the bench's throwaway projects use the shipped one.
  process.env['HOLDFAST_RULEBOOK'] ??= defaultRulebookPath();
  const figure =
    context?.figure ??
    ((input: ReturnType<typeof figureOf>) =>
      print(
        `gate: ${input.name}: ${input.value.toFixed(1)} ${input.unit}, ${(input.value / input.baseline.value).toFixed(2)}x node -e 0 (target <= ${TARGET}x)`,
      ));
  const root = mkdtempSync(join(tmpdir(), 'holdfast-bench-gate-'));
  mkdirSync(join(root, 'src'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=bench@holdfast.invalid', '-c', 'user.name=bench', 'commit', '-q', '--allow-empty', '-m', 'start'], { cwd: root });
  let call = 0;
  const event = (name: string, tool: string, input: Record<string, string>) =>
    JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: name, tool_name: tool, tool_input: input, tool_use_id: `toolu_bench_${call}` });
  const hook = [hookEntryPath(), 'claude-code', '--deadline-ms', String(deadlineMs(HOOK_TIMEOUT_SECONDS))];
  const bash = (command: string) => ({ tool: 'Bash', input: { command } });
  const cases: {
    label: string;
    tool: string;
    input: Record<string, string>;
    first?: () => Record<string, string>;
    fresh?: () => Record<string, string>;
  }[] = [
    {
      label: 'Write',
      tool: 'Write',
      input: { file_path: join(root, 'src', 'orders.test.ts'), content: 'import { expect, it } from "vitest";\nit("works", () => expect(1).toBe(1));\n' },
    },
    { label: 'Bash, read-only', ...bash('git status --short && ls src') },
    { label: 'Bash, test run (snapshot)', ...bash('npm test -- --run src/orders.test.ts') },
    // A test command no call has matched before: its after-call check answers the order rule's pattern (RE2 loads there, not at the commit).
    {
      label: 'Bash, a new test command (snapshot; RE2 after the call)',
      ...bash('npm test'),
      fresh: () => ({ command: `npm test -- --run src/fresh-${call}.test.ts` }),
    },
    // The test command ran in every earlier round: its answer from the order rule's pattern is known (no RE2).
    { label: 'Bash, commit (snapshot)', ...bash('git add -A && git commit -qm orders') },
    // A test command no call has matched before runs first (untimed): its after-call check answered the order rule's pattern.
    {
      label: 'Bash, commit after a new test command (snapshot)',
      ...bash('git add -A && git commit -qm orders'),
      first: () => ({ command: `npm test -- --run src/orders-${call}.test.ts` }),
    },
  ];
  // Every Node line in the agent cache besides this machine's, each with its own `node -e 0`, in the same rounds.
  const lines: NodeLine[] = [{ label: '', version: process.versions.node, node: process.execPath, runs: RUNS }];
  for (const spec of Object.values(NODE_LINES)) {
    if (spec.version.split('.')[0] === process.versions.node.split('.')[0]) continue;
    const node = join(agentClientFolder(spec, agentCacheRoot()), spec.bin);
    if (existsSync(node)) lines.push({ label: ` on Node ${spec.version}`, version: spec.version, node, runs: LINE_RUNS });
    else print(`gate: Node ${spec.version}: not measured (not in the agent cache ${agentCacheRoot()}; \`npm test\` puts it there)`);
  }
  const untimedFirst = (entry: (typeof cases)[number], node: string) => {
    if (entry.first === undefined) return;
    call += 1;
    const before = entry.first();
    run(hook, event('PreToolUse', 'Bash', before), node);
    run(hook, event('PostToolUse', 'Bash', before), node);
  };
  // A shell call costs two hook processes: the decision before it, and the check after it (snapshot
  // compared, ignore rules listed, changes judged), which the agent also waits for. Both are timed.
  const decide = (index: number, node: string): { before: Sample; after?: Sample } => {
    const entry = cases[index] as (typeof cases)[number];
    const { tool } = entry;
    untimedFirst(entry, node);
    call += 1;
    const input = entry.fresh?.() ?? entry.input;
    const before = run(hook, event('PreToolUse', tool, input), node);
    return tool === 'Bash' ? { before, after: run(hook, event('PostToolUse', tool, input), node) } : { before };
  };
  try {
    const started = performance.now();
    // Each line's first call (its rulebook cache and compile cache cold) is reported apart, not in the rounds.
    const firsts = lines.map((line) => decide(0, line.node).before);
    const measured = lines.map(() => ({ baseline: [] as Sample[], samples: cases.map((): Sample[] => []), afterSamples: cases.map((): Sample[] => []) }));
    for (let round = 0; round < Math.max(...lines.map((line) => line.runs)); round += 1) {
      lines.forEach((line, at) => {
        if (round >= line.runs) return;
        const { baseline, samples, afterSamples } = measured[at] as (typeof measured)[number];
        baseline.push(run(['-e', '0'], '', line.node));
        cases.forEach((_, index) => {
          const { before, after } = decide(index, line.node);
          samples[index]?.push(before);
          if (after !== undefined) afterSamples[index]?.push(after);
        });
      });
    }
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    print(
      `gate: machine load average ${load}; ${lines.length} Node line${lines.length === 1 ? '' : 's'} in ${((performance.now() - started) / 1000).toFixed(0)} s (wall time ratios are only meaningful on an idle machine; CPU time and instructions much less affected)`,
    );
    lines.forEach((line, at) => {
      const { baseline, samples, afterSamples } = measured[at] as (typeof measured)[number];
      const base = { name: line.label === '' ? 'node -e 0' : `node -e 0 of Node ${line.version}`, runs: line.runs };
      const baseWall = median(baseline.map((sample) => sample.wallMs));
      const baseCpu = mean(baseline.map((sample) => sample.cpuMs));
      print(
        `gate: Node ${line.version}: first hook call (rulebook and compile cache cold) ${firsts[at]?.wallMs.toFixed(1)} ms; node -e 0 ${baseWall.toFixed(1)} ms wall (median of ${line.runs}), ${baseCpu.toFixed(1)} ms CPU (mean)`,
      );
      cases.forEach((entry, index) => reportTimes(figure, `hook ${entry.label}${line.label}`, samples[index] ?? [], baseWall, baseCpu, base));
      cases.forEach((entry, index) =>
        reportTimes(figure, `hook ${entry.label}${line.label}, after the call (PostToolUse)`, afterSamples[index] ?? [], baseWall, baseCpu, base),
      );
    });
    // The same hook on projects of growing size, each tool really run between the hook's events (this machine's Node: the growth is git's work, not Node's).
    runSizeBench(print, context?.figure ?? ((input) => print(`gate: ${input.name}: ${input.value.toFixed(1)} ${input.unit}`)));
    if (process.env.HOLDFAST_BENCH_INSTRUCTIONS !== '1' || spawnSync('valgrind', ['--version']).status !== 0) {
      print('gate: instructions: not measured (set HOLDFAST_BENCH_INSTRUCTIONS=1 with valgrind installed; about a minute per hook call)');
      return;
    }
    const base = instructions(['-e', '0'], '') / 1e6;
    // The same sequence as the timed rounds: a shell call's check after it follows its decision (and is counted too).
    cases.forEach((entry) => {
      untimedFirst(entry, process.execPath);
      call += 1;
      const input = entry.fresh?.() ?? entry.input;
      figure(figureOf(`hook ${entry.label}, instructions (callgrind)`, instructions(hook, event('PreToolUse', entry.tool, input)) / 1e6, base, 'M'));
      if (entry.tool !== 'Bash') return;
      const after = instructions(hook, event('PostToolUse', entry.tool, input)) / 1e6;
      figure(figureOf(`hook ${entry.label}, after the call (PostToolUse), instructions (callgrind)`, after, base, 'M'));
    });
  } finally {
    // The hook mirrors the session outside the project, under the user's real home: that folder is the bench's too.
    rmSync(sessionMirrorFolder(root), { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
}
