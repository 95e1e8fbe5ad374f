import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { gateMain as main } from '../test-support/gate-main.js';
import { claude, claudeBashPassed } from '../test-support/payloads.js';
import { git } from '../test-support/git-repo.js';

const RULEBOOK = `version: 1
rules:
  - id: R7
    name: NO-TODO
    prose: Do not leave TODO comments in the code.
    check:
      kind: custom
      module: checks/no-todo.mjs
  - id: R8
    name: NO-FIXME
    prose: Do not leave FIXME comments in the code.
    check:
      kind: custom
      exec: [node, checks/no-fixme.mjs]
`;

const NO_TODO = `export function check(round) {
  return round.actions.filter((action) => action.type === 'write').map((action) => ({
    actionIndex: action.index,
    ok: !/\\bTODO\\b/.test(action.content ?? ''),
    detail: /\\bTODO\\b/.test(action.content ?? '') ? \`write to \${action.path} leaves a TODO\` : 'clean',
  }));
}
`;

const NO_FIXME = `let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const round = JSON.parse(input);
  const results = round.actions.filter((a) => a.type === 'write').map((a) => ({ actionIndex: a.index, ok: !/FIXME/.test(a.content ?? ''), detail: 'leaves a FIXME' }));
  process.stdout.write(JSON.stringify({ results }));
});
`;

/** What a weakened check looks like: every action passes. */
const WEAK = 'export function check(round) { return round.actions.map((action) => ({ actionIndex: action.index, ok: true, detail: "fine" })); }\n';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-rule-code-guard-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, 'checks'), { recursive: true });
  writeFileSync(join(root, 'rules.yaml'), RULEBOOK);
  writeFileSync(join(root, 'checks', 'no-todo.mjs'), NO_TODO);
  writeFileSync(join(root, 'checks', 'no-fixme.mjs'), NO_FIXME);
  writeFileSync(join(root, 'src', 'orders.ts'), 'export const orders = 1;\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', 'start');
  return root;
}

async function hook(root: string, input: string) {
  const io = memoryIo({ input, cwd: root });
  const code = await main(['hook', 'claude-code', '--rulebook', join(root, 'rules.yaml')], io);
  return { code, out: io.out(), err: io.err() };
}

function denial(out: string): string | undefined {
  if (out === '') return undefined;
  const parsed = JSON.parse(out) as { hookSpecificOutput?: { permissionDecision: string; permissionDecisionReason: string } };
  return parsed.hookSpecificOutput?.permissionDecisionReason;
}

describe('the live gate guards the rule code a rulebook names as it guards the rulebook', { timeout: 300_000 }, () => {
  // A custom check's path is relative to the folder the hook runs in: the agent starts it in the project.
  const started = process.cwd();
  let root = '';
  beforeEach(() => {
    root = project();
    process.chdir(root);
  });
  afterEach(() => process.chdir(started));

  it('refuses a Write or an Edit weakening a custom check’s module or script, and the next TODO is still refused', async () => {
    expect(denial((await hook(root, claude.write(root, 's', 'checks/no-todo.mjs', WEAK))).out)).toMatch(
      /GATE TAMPER: write to "checks\/no-todo\.mjs" would change checks\/no-todo\.mjs, rule code the rulebook runs as a check/,
    );
    expect(denial((await hook(root, claude.edit(root, 's', 'checks/no-todo.mjs', '!/\\bTODO\\b/.test(', 'true || !/\\bTODO\\b/.test('))).out)).toMatch(
      /GATE TAMPER/,
    );
    expect(denial((await hook(root, claude.write(root, 's', 'checks/no-fixme.mjs', 'process.stdout.write("[]");\n'))).out)).toMatch(
      /GATE TAMPER: write to "checks\/no-fixme\.mjs"/,
    );
    expect(denial((await hook(root, claude.bash(root, 's', `echo '${WEAK.trim()}' > checks/no-todo.mjs`))).out)).toMatch(/GATE TAMPER/);
    expect(readFileSync(join(root, 'checks', 'no-todo.mjs'), 'utf8')).toBe(NO_TODO);
    expect(denial((await hook(root, claude.write(root, 's', 'src/orders.ts', 'export const orders = 1; // TODO\n'))).out)).toMatch(
      /R7 NO-TODO: write to src\/orders\.ts leaves a TODO/,
    );
    // A file the rulebook does not name is the agent's to write.
    expect((await hook(root, claude.write(root, 's', 'checks/notes.md', 'notes\n'))).out).toBe('');
  });

  it('puts back a shell write to the rule code that only the after-call check sees', async () => {
    const command = `node -e "require('fs').writeFileSync('checks/no-todo.mjs', process.argv[1])" '${WEAK.trim()}'`;
    expect((await hook(root, claude.bash(root, 'sh', command))).out).toBe('');
    execFileSync('/bin/sh', ['-c', command], { cwd: root });
    expect(readFileSync(join(root, 'checks', 'no-todo.mjs'), 'utf8')).not.toBe(NO_TODO);
    const after = await hook(root, claudeBashPassed(root, 'sh', command));
    expect(after.out).toMatch(/GATE TAMPER/);
    expect(readFileSync(join(root, 'checks', 'no-todo.mjs'), 'utf8')).toBe(NO_TODO);
    expect(denial((await hook(root, claude.write(root, 'sh', 'src/orders.ts', 'export const orders = 1; // TODO\n'))).out)).toMatch(/R7 NO-TODO/);
  });
});
