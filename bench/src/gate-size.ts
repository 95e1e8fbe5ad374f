import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadlineMs, HOOK_TIMEOUT_SECONDS, hookEntryPath, sessionMirrorFolder } from '@holdfast/gate';
import type { FigureInput } from './figure.js';

/** Repository sizes, in tracked files: a toy, a service, a monorepo. HOLDFAST_BENCH_GATE_SIZES=30,2000 while developing. */
const SIZES = (process.env['HOLDFAST_BENCH_GATE_SIZES'] ?? '30,2000,20000').split(',').map(Number);
/** Rounds per size; every round runs every size and both floors once, interleaved. */
const ROUNDS = Number(process.env['HOLDFAST_BENCH_GATE_SIZE_ROUNDS'] ?? 11);
/** CPU per call at the largest size against the smallest: the target of issue 47. */
const GROWTH_TARGET = 1.1;

/** CPU time (user + system, in ms) of this process's waited-for children so far, their own children included. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** The CPU time of one process tree, waited for; it must exit 0 and, for a hook, must not refuse. */
function cpuOf(command: string, args: readonly string[], options: { input?: string; cwd?: string } = {}): number {
  const before = childrenCpuMs();
  const result = spawnSync(command, args, { input: options.input ?? '', cwd: options.cwd, encoding: 'utf8' });
  const spent = childrenCpuMs() - before;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  if (result.stdout.includes('"deny"') || result.stdout.includes('"block"')) throw new Error(`the bench's call was refused: ${result.stdout}`);
  return spent;
}

/** A project of `files` tracked TypeScript files in folders of 100, committed, with a test script that writes a report. */
function makeProject(files: number): string {
  const root = mkdtempSync(join(tmpdir(), `holdfast-bench-gate-${files}-`));
  for (let index = 0; index < files; index += 1) {
    const folder = join(root, 'src', `part-${Math.floor(index / 100)}`);
    if (index % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `module-${index}.ts`), `export const value${index} = ${index};\n`);
  }
  mkdirSync(join(root, 'scripts'));
  // The writing shell call: a test script that reads a source file and writes its report into the work tree.
  writeFileSync(
    join(root, 'scripts', 'test.mjs'),
    "import { readFileSync, writeFileSync } from 'node:fs';\nwriteFileSync('src/test-report.txt', `ok ${readFileSync('src/part-0/module-0.ts', 'utf8').length} ${Date.now()}\\n`);\n",
  );
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bench-project', private: true, scripts: { test: 'node scripts/test.mjs' } }, null, 2));
  writeFileSync(join(root, 'src', 'orders.ts'), 'export const total = 0;\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=bench@holdfast.invalid', '-c', 'user.name=bench', '-c', 'gc.auto=0', ...args], { cwd: root });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  return root;
}

interface Kind {
  readonly label: string;
  /** The hook events of one call and the tool run between them, each returning the hook's CPU (the tool's own is not counted). */
  readonly call: (root: string, hook: (root: string, event: string, tool: string, input: Record<string, string>) => number, id: number) => number;
}

const KINDS: readonly Kind[] = [
  {
    label: 'Write',
    call: (root, hook, id) => {
      const input = { file_path: join(root, 'src', `feature-${id}.test.ts`), content: 'import { it } from "vitest";\nit("works", () => undefined);\n' };
      const spent = hook(root, 'PreToolUse', 'Write', input);
      writeFileSync(input.file_path, input.content);
      return spent;
    },
  },
  {
    label: 'Edit',
    call: (root, hook, id) => {
      const file = join(root, 'src', 'orders.ts');
      const old = readFileSync(file, 'utf8');
      const input = { file_path: file, old_string: old.trimEnd(), new_string: `export const total = ${id};` };
      const spent = hook(root, 'PreToolUse', 'Edit', input);
      writeFileSync(file, old.replace(input.old_string, input.new_string));
      return spent;
    },
  },
  {
    label: 'Bash, read-only (ls)',
    call: (root, hook) => {
      const input = { command: 'ls src' };
      const spent = hook(root, 'PreToolUse', 'Bash', input);
      execFileSync('sh', ['-c', input.command], { cwd: root });
      return spent + hook(root, 'PostToolUse', 'Bash', input);
    },
  },
  {
    label: 'Bash, writing (npm test)',
    call: (root, hook) => {
      const input = { command: 'npm test' };
      const spent = hook(root, 'PreToolUse', 'Bash', input);
      execFileSync('sh', ['-c', input.command], { cwd: root, stdio: 'ignore' });
      return spent + hook(root, 'PostToolUse', 'Bash', input);
    },
  },
];

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * The hook per call kind on projects of 30, 2,000 and 20,000 files, as a session calls it: the
 * decision before the call, the tool really run (a file written, an edit applied, `ls`, `npm test`
 * writing its report), the check after it where the agent sends one (shell calls), so the snapshot
 * store and the session grow as they do in use. Each figure is the CPU time of the hook's process
 * tree (git included; the tool's own CPU is not counted) per call, the mean over the rounds, against
 * `node -e 0` of the same Node and a bare allow script (reads the event, answers `{}`) measured in the
 * same rounds. Rounds interleave every size and both floors, so machine load hits all alike. The
 * growth figure holds each kind's CPU at the largest size to 1.1× its CPU at the smallest.
 */
export function runSizeBench(print: (line: string) => void, figure: (input: FigureInput) => void): void {
  const scratch = mkdtempSync(join(tmpdir(), 'holdfast-bench-allow-'));
  const allow = join(scratch, 'allow.cjs');
  writeFileSync(allow, "let text = '';\nprocess.stdin.on('data', (chunk) => (text += chunk));\nprocess.stdin.on('end', () => process.stdout.write('{}'));\n");
  const projects = SIZES.map((size) => ({ size, root: makeProject(size) }));
  const hookArgs = [hookEntryPath(), 'claude-code', '--deadline-ms', String(deadlineMs(HOOK_TIMEOUT_SECONDS))];
  let id = 0;
  const hook = (root: string, event: string, tool: string, input: Record<string, string>) =>
    cpuOf(process.execPath, hookArgs, {
      cwd: root,
      input: JSON.stringify({
        session_id: 'bench-size',
        cwd: root,
        hook_event_name: event,
        tool_name: tool,
        tool_input: input,
        tool_use_id: `toolu_size_${id}`,
      }),
    });
  try {
    // A session's first call makes the snapshot store (once per project): measured apart, not in the rounds.
    for (const project of projects) {
      id += 1;
      const first = KINDS[3]!.call(project.root, hook, id);
      print(`gate: ${project.size} files: a session's first shell call (makes the snapshot store) ${first} ms CPU`);
    }
    const nodeFloor: number[] = [];
    const allowFloor: number[] = [];
    const samples = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const project of projects) {
        nodeFloor.push(cpuOf(process.execPath, ['-e', '0']));
        allowFloor.push(cpuOf(process.execPath, [allow], { input: '{"hook_event_name":"PreToolUse"}' }));
        for (const kind of KINDS) {
          id += 1;
          const key = `${project.size}/${kind.label}`;
          samples.set(key, [...(samples.get(key) ?? []), kind.call(project.root, hook, id)]);
        }
      }
    }
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const nodeCpu = mean(nodeFloor);
    const allowCpu = mean(allowFloor);
    print(
      `gate: per call kind and project size, ${ROUNDS} interleaved rounds, load average ${load}; node -e 0 ${nodeCpu.toFixed(1)} ms CPU, a bare allow script ${allowCpu.toFixed(1)} ms CPU (means)`,
    );
    for (const kind of KINDS) {
      const processes = kind.label.startsWith('Bash') ? 2 : 1;
      for (const project of projects) {
        const value = mean(samples.get(`${project.size}/${kind.label}`) ?? []);
        figure({
          name: `hook ${kind.label} at ${project.size} files, CPU of the process tree per call (${processes} hook process${processes === 1 ? '' : 'es'}, tool run between, mean of ${ROUNDS})`,
          value,
          unit: 'ms',
          better: 'lower',
          baseline: { name: `node -e 0 ×${processes}`, value: nodeCpu * processes },
          detail: `bare allow script ×${processes}: ${(allowCpu * processes).toFixed(1)} ms, ${(value / (allowCpu * processes)).toFixed(2)}× it`,
        });
      }
      const small = projects[0];
      const large = projects[projects.length - 1];
      if (small === undefined || large === undefined || small === large) continue;
      const smallCpu = mean(samples.get(`${small.size}/${kind.label}`) ?? []);
      const largeCpu = mean(samples.get(`${large.size}/${kind.label}`) ?? []);
      figure({
        name: `hook ${kind.label}: CPU per call at ${large.size} files against ${small.size} files`,
        value: largeCpu,
        unit: 'ms',
        better: 'lower',
        baseline: { name: `the same call at ${small.size} files`, value: smallCpu },
        target: { on: 'ratio', atMost: GROWTH_TARGET },
      });
    }
  } finally {
    // A session's hook may leave a background prune of the snapshot store running: retried until it ends.
    for (const project of projects) {
      rmSync(sessionMirrorFolder(project.root), { recursive: true, force: true });
      rmSync(project.root, { recursive: true, force: true, maxRetries: 10 });
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}
