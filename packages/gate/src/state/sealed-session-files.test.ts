import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookAnswer } from '../decide/hook-answer.js';
import { loadFlagged, saveFlagged, sessionWasChecked } from '../put-back/outside-check.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from '../hook/run-hook.js';
import { loadSessionIgnores } from './session-ignores.js';
import { sessionMirrorFolder, sessionStatePath } from './session-state.js';
import { claude } from '../test-support/payloads.js';

const T0 = new Date('2026-11-30T12:00:00.000Z');
const LOGGED = `export const leak = () => ${['console', 'log'].join('.')}('leak');\n`;
const CLEAN = 'export const leak = () => 1;\n';

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-sealed-files-'));
  made.push(root);
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

function hook(input: string): Promise<HookAnswer> {
  return answerAgentHook('claude-code', input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

async function shellCall(root: string, id: string, script: string): Promise<HookAnswer> {
  const pre = JSON.parse(claude.bash(root, 's1', 'npm run generate')) as Record<string, unknown>;
  expect((await hook(JSON.stringify({ ...pre, tool_use_id: id }))).stdout).toBe('');
  execFileSync('sh', ['-c', script], { cwd: root, stdio: 'ignore' });
  return hook(JSON.stringify({ ...pre, tool_use_id: id, hook_event_name: 'PostToolUse' }));
}

function mirrorOf(path: string, root: string): string {
  return join(sessionMirrorFolder(root), basename(path));
}

const FORGED_IGNORES = `'{"version":1,"rules":{},"files":{}}'`;

describe("the session's ignore rules, sealed", () => {
  it('a command that rewrites the record to drop its rule does not hide the file it writes: the record is put back from its mirror', async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1', `printf 'leak.ts\\n' > src/.gitignore && printf '${CLEAN}' > src/leak.ts`)).stdout).toBe('');
    const record = sessionStatePath(root, 's1', '.ignores');
    const answer = await shellCall(root, 'toolu_2', `cat > src/leak.ts <<'EOF'\n${LOGGED}EOF\necho ${FORGED_IGNORES} > ${record}`);
    expect(answer.stdout).toMatch(/src\/leak\.ts: restored .*R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'leak.ts'), 'utf8')).toBe(CLEAN);
    expect(loadSessionIgnores(root, 's1')?.rules).toEqual({ 'src/.gitignore': null });
  });

  it('a forged record with no mirror to vouch for it fails closed: every .gitignore not as committed is the session’s again', async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1', `printf 'leak.ts\\n' > src/.gitignore && printf '${CLEAN}' > src/leak.ts`)).stdout).toBe('');
    const record = sessionStatePath(root, 's1', '.ignores');
    const answer = await shellCall(
      root,
      'toolu_2',
      `cat > src/leak.ts <<'EOF'\n${LOGGED}EOF\necho ${FORGED_IGNORES} > ${record}\nrm -f '${mirrorOf(record, root)}'`,
    );
    expect(answer.stdout).toMatch(/src\/leak\.ts: .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'leak.ts')) && readFileSync(join(root, 'src', 'leak.ts'), 'utf8') === LOGGED).toBe(false);
  });
});

describe('the files left in place against a rule, sealed', () => {
  it('a deleted list neither undoes that the session was checked nor forgets a file', () => {
    const root = repository();
    saveFlagged(root, 's1', ['src/left.ts']);
    rmSync(sessionStatePath(root, 's1', '.outside'));
    expect(sessionWasChecked(root, 's1')).toBe(true);
    expect(loadFlagged(root, 's1')).toEqual(['src/left.ts']);
    writeFileSync(sessionStatePath(root, 's1', '.outside'), '[]\n');
    expect(loadFlagged(root, 's1')).toEqual(['src/left.ts']);
  });

  it('a forged list with no mirror fails closed: every file not as committed is judged again', () => {
    const root = repository();
    saveFlagged(root, 's1', ['src/left.ts']);
    rmSync(mirrorOf(sessionStatePath(root, 's1', '.outside'), root));
    writeFileSync(sessionStatePath(root, 's1', '.outside'), '[]\n');
    writeFileSync(join(root, 'src', 'left.ts'), LOGGED);
    writeFileSync(join(root, 'src', 'greet.ts'), 'export const greet = () => "hello";\n');
    expect(loadFlagged(root, 's1').sort()).toEqual(['src/greet.ts', 'src/left.ts']);
  });
});
