import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadlineMs, HOOK_TIMEOUT_SECONDS, hookEntryPath } from '../gate/hook-command.js';

const RUNS = 21;

function wallMs(args: string[], input: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The hook runs as a fresh process on every tool call, started the way the installed command starts
 * it (the bundled entry dist/hook/hook.cjs, with its deadline). Median wall time of one cold decision
 * for a clean Write, a Bash command and a Bash test run, each against `node -e 0` measured interleaved in the same
 * run (so machine load hits all three alike). Target: at most 1.5× `node -e 0`.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-bench-gate-'));
  mkdirSync(join(root, 'src'));
  const event = (tool: string, input: Record<string, string>) =>
    JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });
  const write = event('Write', {
    file_path: join(root, 'src', 'orders.test.ts'),
    content: 'import { expect, it } from "vitest";\nit("works", () => expect(1).toBe(1));\n',
  });
  const bash = event('Bash', { command: 'git status --short && ls src' });
  // A test run is the one Bash command the order rule's pattern has to run on RE2 for.
  const testRun = event('Bash', { command: 'npm test -- --run src/orders.test.ts' });
  const hook = [hookEntryPath(), 'claude-code', '--deadline-ms', String(deadlineMs(HOOK_TIMEOUT_SECONDS))];
  try {
    const firstCall = wallMs(hook, write);
    const baseline: number[] = [];
    const writes: number[] = [];
    const commands: number[] = [];
    const testRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      baseline.push(wallMs(['-e', '0'], ''));
      writes.push(wallMs(hook, write));
      commands.push(wallMs(hook, bash));
      testRuns.push(wallMs(hook, testRun));
    }
    const base = median(baseline);
    print(`gate: first hook call (rulebook cache cold)        ${firstCall.toFixed(1)} ms`);
    print(`gate: node -e 0, median of ${RUNS}                     ${base.toFixed(1)} ms`);
    print(`gate: hook claude-code Write, median               ${median(writes).toFixed(1)} ms, ${(median(writes) / base).toFixed(2)}x node -e 0 (target <= 1.5x)`);
    print(`gate: hook claude-code Bash, median                ${median(commands).toFixed(1)} ms, ${(median(commands) / base).toFixed(2)}x node -e 0 (target <= 1.5x)`);
    print(`gate: hook claude-code Bash test run, median       ${median(testRuns).toFixed(1)} ms, ${(median(testRuns) / base).toFixed(2)}x node -e 0 (loads RE2 for the order rule)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
