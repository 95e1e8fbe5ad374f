import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { relaySchemaErrors } from '@holdfast/gate/test-support';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/holdfast.js', import.meta.url));
const HOLDFAST = `${process.execPath} ${BIN}`;
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Step {
  readonly name: string;
  readonly command: string;
  readonly dependsOn?: readonly string[];
}

function write(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** A user's repository: a committed base, holdfast not in it, no rulebook of its own. */
function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-flow-'));
  folders.push(root);
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  git('init', '-q');
  git('config', 'user.email', 'e2e@example.com');
  git('config', 'user.name', 'e2e');
  write(root, 'package.json', '{"name":"shop","type":"module"}\n');
  write(root, 'src/lib/http.ts', 'export async function get(url: string): Promise<unknown> {\n  return (await fetch(url)).json();\n}\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return root;
}

function runShell(command: string, cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, stdio: 'ignore', env: { PATH: process.env.PATH ?? '' } });
    child.on('close', (code) => resolve(code));
  });
}

/**
 * Runs the workflow's deterministic steps as Relay does: a step starts when every step it depends
 * on passed (exit 0), steps that do not depend on each other run at the same time.
 */
async function runFlow(steps: readonly Step[], cwd: string): Promise<Record<string, number | null>> {
  const codes: Record<string, number | null> = {};
  const pending = [...steps];
  while (pending.length > 0) {
    const ready = pending.filter((step) => (step.dependsOn ?? []).every((name) => codes[name] === 0));
    if (ready.length === 0) break;
    const results = await Promise.all(ready.map((step) => runShell(step.command, cwd)));
    ready.forEach((step, index) => {
      codes[step.name] = results[index] ?? null;
      pending.splice(pending.indexOf(step), 1);
    });
  }
  return codes;
}

async function exportedSteps(cwd: string): Promise<Step[]> {
  const exported = spawnSync(process.execPath, [BIN, 'rulebook', 'export', '--format', 'flowspec', '--holdfast', HOLDFAST], { cwd, encoding: 'utf8' });
  expect(exported.status).toBe(0);
  const spec = parse(exported.stdout);
  expect(relaySchemaErrors(spec)).toEqual([]);
  return spec.workflows[0].steps as Step[];
}

describe('the exported Relay workflow, run in a user repository', () => {
  it('passes every step on a clean change', async () => {
    const root = repository();
    write(root, 'src/features/total.ts', 'export const total = (items: number[]): number => items.reduce((sum, item) => sum + item, 0);\n');
    write(root, 'src/features/total.test.ts', "import { total } from './total.ts';\nexport const checked = total([1, 2]) === 3;\n");
    const codes = await runFlow(await exportedSteps(root), root);
    expect(Object.values(codes).every((code) => code === 0)).toBe(true);
    expect(Object.keys(codes)).toHaveLength(7);
  });

  it('fails exactly the broken rules on a violating change', async () => {
    const root = repository();
    // A new module without its test (R3) that logs (R4).
    write(root, 'src/features/refunds.ts', 'export function refund(): void {\n  console.log("refund");\n}\n');
    const codes = await runFlow(await exportedSteps(root), root);
    expect(codes).toEqual({
      'collect-actions': 0,
      'r1-secret': 0,
      'r2-scope': 0,
      'r3-tests': 1,
      'r4-nolog': 1,
      'r5-http': 0,
      'r6-order': 0,
    });
  });
});
