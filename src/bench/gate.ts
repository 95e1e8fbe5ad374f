import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/holdfast.js', import.meta.url));
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
 * The hook runs as a fresh process on every tool call: median wall time of one `holdfast hook
 * claude-code` decision for a clean Write, against `node -e 0` measured interleaved in the same run
 * (so machine load hits both alike). Target: at most 1.5× `node -e 0`.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-bench-gate-'));
  mkdirSync(join(root, 'src'));
  const payload = JSON.stringify({
    session_id: 'bench',
    cwd: root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(root, 'src', 'orders.test.ts'), content: 'import { expect, it } from "vitest";\nit("works", () => expect(1).toBe(1));\n' },
  });
  try {
    const firstCall = wallMs([BIN, 'hook', 'claude-code'], payload);
    const baseline: number[] = [];
    const hook: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      baseline.push(wallMs(['-e', '0'], ''));
      hook.push(wallMs([BIN, 'hook', 'claude-code'], payload));
    }
    const base = median(baseline);
    const gate = median(hook);
    print(`gate: first hook call (rulebook cache cold)   ${firstCall.toFixed(1)} ms`);
    print(`gate: node -e 0, median of ${RUNS}                ${base.toFixed(1)} ms`);
    print(`gate: holdfast hook claude-code Write, median  ${gate.toFixed(1)} ms`);
    print(`gate: ratio hook / node -e 0                   ${(gate / base).toFixed(2)}x (target <= 1.5x)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
