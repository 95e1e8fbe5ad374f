import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grantAllowance } from './allowance.js';
import type { HookAnswer } from '../decide/hook-answer.js';
import { ignoredNow } from './hidden-files.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from '../hook/run-hook.js';
import { changesBehindSessionRules, filesBehindSessionRules, followJudgement, loadSessionIgnores, noteIgnoreFileWrites } from './session-ignores.js';
import type { SessionIgnores } from './session-ignores.js';
import { readRepoState } from './repo-state.js';
import { ensureStore, snapshotIndex } from './snapshot-store.js';
import type { TreeChange } from './snapshot-store.js';
import { claude } from '../test-support/payloads.js';

const T0 = new Date('2026-11-30T12:00:00.000Z');
// Built at run time, as an agent would write it.
const LOGGED = `export const leak = () => ${['console', 'log'].join('.')}('leak');\n`;
const CLEAN = 'export const leak = () => 1;\n';

function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-ignores-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'greet.ts'), 'export const greet = () => "hi";\n');
  writeFileSync(join(root, 'src', 'greet.test.ts'), 'export {};\n');
  writeFileSync(join(root, '.gitignore'), '.holdfast/\ndist/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.email=a@b.test', '-c', 'user.name=a', 'commit', '-q', '-m', 'start');
  return root;
}

function run(root: string, script: string): void {
  execFileSync('sh', ['-c', script], { cwd: root, stdio: 'ignore' });
}

function hook(input: string): Promise<HookAnswer> {
  return answerAgentHook('claude-code', input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

/** A shell call whose effects only show after it ran (a script), checked as the hook checks it: snapshot, run, judge. */
async function shellCall(root: string, id: string, script: string): Promise<HookAnswer> {
  const pre = JSON.parse(claude.bash(root, 's1', 'npm run generate')) as Record<string, unknown>;
  expect((await hook(JSON.stringify({ ...pre, tool_use_id: id }))).stdout).toBe('');
  run(root, script);
  return hook(JSON.stringify({ ...pre, tool_use_id: id, hook_event_name: 'PostToolUse' }));
}

function blockReason(answer: HookAnswer): string {
  const parsed = JSON.parse(answer.stdout) as { decision: string; reason: string };
  expect(parsed.decision).toBe('block');
  return parsed.reason;
}

function stop(root: string): string {
  return JSON.stringify({ session_id: 's1', transcript_path: null, cwd: root, hook_event_name: 'Stop', stop_hook_active: false });
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

describe('noteIgnoreFileWrites', () => {
  it('keeps each .gitignore a call writes with its text before the session first wrote it, and nothing for other writes', () => {
    const root = repository();
    noteIgnoreFileWrites(root, 's1', [{ type: 'write', path: 'src/greet.ts', content: '' }]);
    expect(loadSessionIgnores(root, 's1')).toBeUndefined();
    expect(existsSync(join(root, '.holdfast', 'sessions'))).toBe(false);
    noteIgnoreFileWrites(root, 's1', [
      { type: 'write', path: '.gitignore', content: 'x' },
      { type: 'write', path: 'src/gen/.gitignore', content: '*\n' },
      { type: 'delete', path: 'src/old/.gitignore' },
      { type: 'write', path: '../elsewhere/.gitignore', content: '*\n' },
    ]);
    writeFileSync(join(root, '.gitignore'), 'changed\n');
    noteIgnoreFileWrites(root, 's1', [{ type: 'write', path: '.gitignore', content: 'again' }]);
    expect(loadSessionIgnores(root, 's1')).toEqual({ version: 1, rules: { '.gitignore': '.holdfast/\ndist/\n', 'src/gen/.gitignore': null }, files: {} });
  });
});

describe('filesBehindSessionRules', () => {
  /** The store's index brought up to the work tree, as a check does before it looks behind the rules. */
  function checked(root: string) {
    const store = ensureStore(root, readRepoState(root));
    snapshotIndex(root, store, join(store, 'calls', 'x.index'), undefined, () => false);
    return { root, store };
  }

  it("lists what the session's rules hide, below their folders only, and leaves what the project's rules hide alone", () => {
    const root = repository();
    mkdirSync(join(root, 'src', 'cache'));
    mkdirSync(join(root, 'dist'));
    // A person's: a build folder, and a tool's cache folder that ignores itself.
    writeFileSync(join(root, 'dist', 'out.js'), '');
    writeFileSync(join(root, 'src', 'cache', '.gitignore'), '*\n');
    writeFileSync(join(root, 'src', 'cache', 'entry.ts'), '');
    // The session's: a new src/.gitignore, and a line added to the top one.
    writeFileSync(join(root, 'src', '.gitignore'), 'leak.ts\n');
    writeFileSync(join(root, '.gitignore'), '.holdfast/\ndist/\nsrc/extra.ts\n');
    writeFileSync(join(root, 'src', 'leak.ts'), CLEAN);
    writeFileSync(join(root, 'src', 'extra.ts'), CLEAN);
    const context = checked(root);
    const record: SessionIgnores = { version: 1, rules: { 'src/.gitignore': null, '.gitignore': '.holdfast/\ndist/\n' }, files: {} };
    const behind = filesBehindSessionRules(context, record, 'index', ignoredNow(context));
    expect(behind.map((change) => [change.path, change.status, change.hidden])).toEqual([
      ['src/extra.ts', 'added', true],
      ['src/leak.ts', 'added', true],
    ]);
    const blob = behind[1]?.to ?? '';
    expect(blob).toMatch(/^[0-9a-f]{40}$/);
    // Below src/ only: the top .gitignore's own line is not the session's there.
    const below = filesBehindSessionRules(context, { ...record, rules: { 'src/.gitignore': null } }, 'index', ignoredNow(context));
    expect(below.map((change) => change.path)).toEqual(['src/leak.ts']);

    expect(changesBehindSessionRules({ ...record, files: { 'src/leak.ts': blob } }, behind, new Set(['src/extra.ts']))).toEqual([]);
    expect(changesBehindSessionRules({ ...record, files: { 'src/leak.ts': 'a'.repeat(40) } }, behind, new Set())).toEqual([
      expect.objectContaining({ path: 'src/extra.ts', status: 'added', from: null }),
      expect.objectContaining({ path: 'src/leak.ts', status: 'modified', from: 'a'.repeat(40), to: blob }),
    ]);
  });
});

describe('followJudgement', () => {
  const change = (path: string, status: TreeChange['status'], from: string | null, to: string | null, hidden = true): TreeChange => ({
    path,
    status,
    from,
    to,
    ...(hidden ? { hidden: true } : {}),
  });

  it('adds a kept .gitignore to the rules and keeps the files behind them as they now stand', () => {
    const root = repository();
    const context = { root, store: ensureStore(root, readRepoState(root)) };
    const record: SessionIgnores = { version: 1, rules: { 'src/.gitignore': null }, files: { 'src/a.ts': 'a1', 'src/gone.ts': 'g1' } };
    const next = followJudgement(context, record, {
      changes: [
        change('src/gen/.gitignore', 'added', null, 'r1', false),
        change('src/a.ts', 'modified', 'a1', 'a2'),
        change('src/b.ts', 'added', null, 'b1'),
        change('src/c.ts', 'added', null, 'c1'),
        change('src/refused/.gitignore', 'added', null, 'r2', false),
      ],
      refused: [
        change('src/a.ts', 'modified', 'a1', 'a2'),
        change('src/b.ts', 'added', null, 'b1'),
        change('src/refused/.gitignore', 'added', null, 'r2', false),
      ],
      behind: [change('src/a.ts', 'added', null, 'a2'), change('src/b.ts', 'added', null, 'b1'), change('src/c.ts', 'added', null, 'c1')],
    });
    expect(next).toEqual({ version: 1, rules: { 'src/.gitignore': null, 'src/gen/.gitignore': null }, files: { 'src/a.ts': 'a1', 'src/c.ts': 'c1' } });
    expect(followJudgement(context, undefined, { changes: [change('src/x.ts', 'added', null, 'x1')], refused: [], behind: [] })).toBeUndefined();
  });
});

describe('files behind ignore rules the session wrote, through the hook', () => {
  it('judges a later change to a file a shell call hid behind its own .gitignore, and puts it back', async () => {
    const root = repository();
    const first = await shellCall(root, 'toolu_1', `printf 'leak.ts\\n' > src/.gitignore && printf '${CLEAN}' > src/leak.ts`);
    expect(first.stdout).toBe('');
    expect(loadSessionIgnores(root, 's1')).toMatchObject({ rules: { 'src/.gitignore': null }, files: { 'src/leak.ts': expect.any(String) } });
    const reason = blockReason(await shellCall(root, 'toolu_2', `cat > src/leak.ts <<'EOF'\n${LOGGED}EOF`));
    expect(reason).toMatch(/src\/leak\.ts: restored to its content before the command\. R4 NOLOG/);
    expect(read(root, 'src/leak.ts')).toBe(CLEAN);
    // A clean change later is kept, and judged from then on by its new content.
    expect((await shellCall(root, 'toolu_3', `printf 'export const leak = () => 2;\\n' > src/leak.ts`)).stdout).toBe('');
    expect((await shellCall(root, 'toolu_4', 'true')).stdout).toBe('');
    expect(read(root, 'src/leak.ts')).toBe('export const leak = () => 2;\n');
  });

  it("keeps a person's lines of a .gitignore the session added to: only what the session's line hides is judged again", async () => {
    const root = repository();
    mkdirSync(join(root, 'src', 'local'));
    writeFileSync(join(root, 'src', '.gitignore'), 'local/\n');
    writeFileSync(join(root, 'src', 'local', 'notes.ts'), LOGGED);
    expect((await shellCall(root, 'toolu_1', `printf 'leak.ts\\n' >> src/.gitignore && printf '${CLEAN}' > src/leak.ts`)).stdout).toBe('');
    expect(loadSessionIgnores(root, 's1')?.rules).toEqual({ 'src/.gitignore': 'local/\n' });
    writeFileSync(join(root, 'src', 'local', 'notes.ts'), `${LOGGED}// more\n`);
    const reason = blockReason(await shellCall(root, 'toolu_2', `cat > src/leak.ts <<'EOF'\n${LOGGED}EOF`));
    expect(reason).toMatch(/src\/leak\.ts: restored .*R4 NOLOG/);
    expect(reason).not.toContain('notes.ts');
    expect(read(root, 'src/local/notes.ts')).toBe(`${LOGGED}// more\n`);
  });

  it('judges a file a shell call writes behind a .gitignore the Write tool wrote in an earlier call', async () => {
    const root = repository();
    expect((await hook(claude.write(root, 's1', 'src/.gitignore', 'leak.ts\n'))).stdout).toBe('');
    writeFileSync(join(root, 'src', '.gitignore'), 'leak.ts\n');
    const reason = blockReason(await shellCall(root, 'toolu_1', `cat > src/leak.ts <<'EOF'\n${LOGGED}EOF`));
    expect(reason).toMatch(/src\/leak\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'leak.ts'))).toBe(false);
  });

  it('judges a new file in a folder that ignores itself, made by an earlier call', async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1', `mkdir -p src/gen && printf '*\\n' > src/gen/.gitignore && printf '${CLEAN}' > src/gen/a.ts`)).stdout).toBe('');
    const reason = blockReason(await shellCall(root, 'toolu_2', `cat > src/gen/b.ts <<'EOF'\n${LOGGED}EOF`));
    expect(reason).toMatch(/src\/gen\/b\.ts: deleted .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'gen', 'b.ts'))).toBe(false);
    expect(read(root, 'src/gen/a.ts')).toBe(CLEAN);
  });

  it("puts back, at the end of the turn, the session's hidden file something rewrote after the last check", async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1', `printf 'leak.ts\\n' > src/.gitignore && printf '${CLEAN}' > src/leak.ts`)).stdout).toBe('');
    writeFileSync(join(root, 'src', 'leak.ts'), LOGGED);
    const answer = await hook(stop(root));
    expect(JSON.parse(answer.stdout)).toEqual({
      decision: 'block',
      reason: expect.stringMatching(/src\/leak\.ts: restored to its content at the last check.*R4 NOLOG/s),
    });
    expect(read(root, 'src/leak.ts')).toBe(CLEAN);
    expect((await hook(stop(root))).stdout).toBe('');
  });

  it("does not refuse again what a person let through (holdfast allow) into a file behind the session's rules", async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1', `printf 'leak.ts\\n' > src/.gitignore && printf '${CLEAN}' > src/leak.ts`)).stdout).toBe('');
    grantAllowance(root, { rule: 'R4', reason: 'a debugging session', now: T0 });
    expect((await hook(claude.write(root, 's1', 'src/leak.ts', LOGGED))).stdout).toBe('');
    writeFileSync(join(root, 'src', 'leak.ts'), LOGGED);
    expect((await shellCall(root, 'toolu_2', 'true')).stdout).toBe('');
    expect(read(root, 'src/leak.ts')).toBe(LOGGED);
  });

  it("leaves a session without ignore rules of its own as it was: a person's ignored folder is not judged", async () => {
    const root = repository();
    mkdirSync(join(root, 'src', 'local'));
    writeFileSync(join(root, 'src', 'local', '.gitignore'), '*\n');
    writeFileSync(join(root, 'src', 'local', 'notes.ts'), LOGGED);
    expect((await shellCall(root, 'toolu_1', `printf '${CLEAN}' > src/clean.ts`)).stdout).toBe('');
    writeFileSync(join(root, 'src', 'local', 'notes.ts'), `${LOGGED}// more\n`);
    expect((await shellCall(root, 'toolu_2', 'true')).stdout).toBe('');
    expect(loadSessionIgnores(root, 's1')).toBeUndefined();
    expect(read(root, 'src/local/notes.ts')).toBe(`${LOGGED}// more\n`);
  });
});
