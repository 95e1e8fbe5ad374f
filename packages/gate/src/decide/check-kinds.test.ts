import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from '../test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import { claude, claudeBashPassed, codex } from '../test-support/payloads.js';

const RULEBOOK = `version: 1
rules:
  - id: P1
    name: PROTECTED
    prose: Never edit migrations/ or lockfiles.
    check:
      kind: paths
      deny: ["migrations/**", "**/package-lock.json"]
      what: a protected path
  - id: C1
    name: COMMANDS
    prose: Never run git reset --hard, git push --force, --no-verify or npm publish.
    check:
      kind: command
      forbid:
        - { command: git reset, flags: [--hard] }
        - { command: git push, flags: [--force, -f, --force-with-lease] }
        - { command: npm publish }
  - id: T1
    name: CHECKED
    prose: Run npm test and npm run lint before committing.
    check:
      kind: requires
      commands:
        - { run: ["npm test"] }
        - { run: ["npm run lint"] }
  - id: D1
    name: DEPS
    prose: New dependencies need an ADR in docs/adr/.
    check:
      kind: dependency
      needs: ["docs/adr/*.md"]
`;

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-kinds-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'rules.yaml'), RULEBOOK);
  writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'app', dependencies: { zod: '4.0.0' } }, null, 2)}\n`);
  return root;
}

async function hook(root: string, agent: string, input: string) {
  const io = memoryIo({ input });
  const code = await main(['hook', agent, '--rulebook', join(root, 'rules.yaml')], io);
  return { code, out: io.out(), err: io.err() };
}

function denial(out: string): string | undefined {
  if (out === '') return undefined;
  const parsed = JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  expect(parsed.hookSpecificOutput.permissionDecision).toBe('deny');
  return parsed.hookSpecificOutput.permissionDecisionReason;
}

describe('the new check kinds in the live gate', () => {
  it.each(['git push --force', 'env X=1 git push -f origin main', "bash -lc 'git reset --hard'", 'npm test && npm publish', '(cd src && git push -f)'])(
    'denies the Bash call %j by the command rule',
    async (command) => {
      const root = project();
      expect(denial((await hook(root, 'claude-code', claude.bash(root, 's', command))).out)).toMatch(/C1 COMMANDS: run .* which is forbidden/);
    },
  );

  it('allows a Bash call that only names a forbidden command in a string or a comment', async () => {
    const root = project();
    expect((await hook(root, 'claude-code', claude.bash(root, 's', "echo 'never git push --force' # npm publish"))).out).toBe('');
  });

  it('denies a write to a denied path, whatever its case, and a shell write into it', async () => {
    const root = project();
    expect(denial((await hook(root, 'claude-code', claude.write(root, 's', 'migrations/002_add.sql', 'select 1;\n'))).out)).toMatch(
      /P1 PROTECTED: write to "migrations\/002_add.sql" touches a protected path/,
    );
    expect(denial((await hook(root, 'claude-code', claude.write(root, 's', 'Migrations/002_add.sql', 'select 1;\n'))).out)).toMatch(/P1 PROTECTED/);
    expect(denial((await hook(root, 'claude-code', claude.bash(root, 's', 'echo "{}" > package-lock.json'))).out)).toMatch(/P1 PROTECTED/);
    expect((await hook(root, 'claude-code', claude.write(root, 's', 'src/a.ts', 'export const a = 1;\n'))).out).toBe('');
  });

  it('denies a codex shell call by the command rule with exit 2', async () => {
    const root = project();
    const result = await hook(root, 'codex', codex.bash(root, 's', ['bash', '-lc', 'git push -f']));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/C1 COMMANDS/);
  });

  it('refuses a commit until every required command ran in the project root after the last change', async () => {
    const root = project();
    const bash = async (command: string) => {
      const out = (await hook(root, 'claude-code', claude.bash(root, 'req', command))).out;
      // The call ran and passed: its PostToolUse binds the run to the tree it found.
      if (out === '' && !command.startsWith('git commit')) await hook(root, 'claude-code', claudeBashPassed(root, 'req', command));
      return out;
    };
    expect(await bash('npm test')).toBe('');
    expect(denial(await bash('git commit -m x'))).toMatch(/T1 CHECKED: .*`npm run lint` has not run/);
    expect(await bash('cd src && npm run lint')).toBe('');
    expect(denial(await bash('git commit -m x'))).toMatch(/`npm run lint` did not count .*not in the project root/);
    expect(await bash('npm run lint')).toBe('');
    expect(await bash('git commit -m x')).toBe('');
  });

  it('binds the required runs to the tree: a file changed after them (by anything) refuses the commit until they run again', async () => {
    const root = project();
    const ran = async (command: string) => {
      expect((await hook(root, 'claude-code', claude.bash(root, 'tree', command))).out).toBe('');
      await hook(root, 'claude-code', claudeBashPassed(root, 'tree', command));
    };
    // An allowed commit runs, and its PostToolUse closes the call's record, as the client sends it (the
    // payloads share one tool_use_id, and a "before" for a call still open keeps that call's snapshot).
    const commit = async (command = 'git commit -m x') => {
      const refused = denial((await hook(root, 'claude-code', claude.bash(root, 'tree', command))).out);
      if (refused === undefined) await hook(root, 'claude-code', claudeBashPassed(root, 'tree', command));
      return refused;
    };
    await ran('npm test');
    await ran('npm run lint');
    expect(await commit()).toBeUndefined();
    // A person (or a process left running) changes a file outside any tool call: the passes were for the tree before it.
    writeFileSync(join(root, 'src', 'late.ts'), 'export const late = 1;\n');
    expect(await commit()).toMatch(/T1 CHECKED: .*`npm test` ran .* but did not pass: it passed on another tree than the one being committed/);
    await ran('npm test');
    expect(await commit()).toMatch(/`npm run lint` ran .*passed on another tree/);
    await ran('npm run lint');
    expect(await commit()).toBeUndefined();
    // Put back as it was, the tree is the one the runs passed on again.
    writeFileSync(join(root, 'src', 'late.ts'), 'export const late = 2;\n');
    expect(await commit()).toMatch(/passed on another tree/);
    writeFileSync(join(root, 'src', 'late.ts'), 'export const late = 1;\n');
    expect(await commit()).toBeUndefined();
  });

  it('does not count a required run in the same call as the commit, nor one whose end no hook saw', async () => {
    const root = project();
    expect(await hook(root, 'claude-code', claude.bash(root, 'same', 'npm run lint')).then(() => undefined)).toBeUndefined();
    const same = denial((await hook(root, 'claude-code', claude.bash(root, 'same', 'npm test && git commit -m x'))).out);
    expect(same).toMatch(/`npm test` ran .* but did not pass: it runs in the same call as the commit/);
    expect(same).toMatch(/`npm run lint` ran .* but did not pass: its end was not seen by the gate/);
  });

  it('compares a package.json edit with the file on disk', async () => {
    const root = project();
    const written = (dependencies: Record<string, string>) => `${JSON.stringify({ name: 'app', dependencies }, null, 2)}\n`;
    expect(denial((await hook(root, 'claude-code', claude.write(root, 's', 'package.json', written({ zod: '4.0.0', axios: '1.7.0' })))).out)).toMatch(
      /D1 DEPS: write to "package.json" brings a dependency \(new dependencies axios 1\.7\.0\)/,
    );
    expect((await hook(root, 'claude-code', claude.write(root, 's', 'package.json', written({ zod: '4.0.0' })))).out).toBe('');
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toMatch(/zod/);
  });
});
