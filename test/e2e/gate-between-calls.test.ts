import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { holdfast } from '@holdfast/lab/test-support';
import type { ScriptStep } from '@holdfast/lab/test-support';
import { makeRepo, settle, toldText, violations } from './gate-guarantee-routes.js';

// Issue 10: a program that detaches itself writes after the check of the call that started it. The
// real Claude Code 2.1.197; the gate judges the change at the end of the turn (Claude Code's Stop).

/** Forks a child that outlives the call, waits for a file, then (1.5 s on) writes a console.log, and a marker outside the repo. */
function detachingScript(marker: string): string {
  const child = [
    "const fs = require('node:fs');",
    "const call = ['console', 'log'].join('.');",
    'const wait = () => {',
    "  if (!fs.existsSync('src/go.txt')) return setTimeout(wait, 20);",
    // Late enough that the check of the call that made go.txt has usually finished.
    '  setTimeout(write, 1500);',
    '};',
    'const write = () => {',
    "  fs.mkdirSync('src/features', { recursive: true });",
    "  fs.writeFileSync('src/features/late.ts', 'export const late = () => ' + call + '(1);\\n');",
    `  fs.writeFileSync(${JSON.stringify(marker)}, 'written');`,
    '};',
    'wait();',
  ].join('\n');
  return [
    "import { spawn } from 'node:child_process';",
    `spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { detached: true, stdio: 'ignore' }).unref();`,
    '',
  ].join('\n');
}

/** Holds the model's next reply until the detached child has written (the scripted server runs in this process). */
function afterChildWrote(marker: string): ScriptStep {
  return () => {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let waited = 0; waited < 30_000 && !existsSync(marker); waited += 50) Atomics.wait(pause, 0, 0, 50);
    return { text: 'Done.' };
  };
}

async function tryDetached(gate: boolean) {
  const { parent, repo } = makeRepo();
  if (gate) holdfast(repo, 'install', 'claude-code');
  const base = settle(repo, false);
  const marker = join(mkdtempSync(join(tmpdir(), 'holdfast-detached-')), 'written');
  const steps: ScriptStep[] = [
    { writeFile: { path: 'src/tools/detach.mjs', content: detachingScript(marker) } },
    { shell: 'node src/tools/detach.mjs' },
    { shell: 'touch src/go.txt' },
    afterChildWrote(marker),
    // Sent back by the gate: the model removes the file it was told about.
    { shell: 'rm -f src/features/late.ts' },
    { text: 'Done.' },
  ];
  const result = await runScenario({ client: 'claude-code', repo, steps });
  return { result, found: violations(parent, repo, base, undefined), told: result.requests.map(toldText).join('\n') };
}

describe('a program that detaches itself and writes after the check, Claude Code real binary', () => {
  it('held: the write is judged (at the end of the turn, or by the check of a call it overlapped), told, and does not stay', async () => {
    const { result, found, told } = await tryDetached(true);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(found, result.explain()).toEqual([]);
    expect(told, result.explain()).toMatch(/src\/features\/late\.ts: (?:left in place|deleted).*R4 NOLOG/);
  });

  it('told (no gate): it lands', async () => {
    const { result, found } = await tryDetached(false);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(found, result.explain()).not.toEqual([]);
  });
});
