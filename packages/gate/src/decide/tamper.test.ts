import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Action } from '@holdfast/core/contract';
import { projectRoot } from '../io/real-path.js';
import { protectedPlaces, tamperFindings } from './tamper.js';

function setup(options: { caseInsensitive: boolean }) {
  const base = mkdtempSync(join(tmpdir(), 'holdfast-tamper-'));
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(home);
  const project = projectRoot(root, options);
  return { root, home, project, places: protectedPlaces(project, { rulebookFile: join(root, 'holdfast.rules.yaml'), home }) };
}

const write = (path: string): Action => ({ type: 'write', path, content: 'x' });
const remove = (path: string): Action => ({ type: 'delete', path });

describe('tamperFindings (actions as any tool produces them: Write, Edit, apply_patch or a shell command)', () => {
  const { project, places } = setup({ caseInsensitive: false });

  it.each([
    [write('.claude/settings.json'), /would change Claude Code's settings/],
    [write('.claude/hooks/gate.sh'), /would change Claude Code's settings/],
    [write('.codex/config.toml'), /would change Codex's settings/],
    [write('.git/hooks/pre-commit'), /would change git's hooks/],
    [remove('.git/hooks/pre-commit'), /would change git's hooks/],
    [remove('.git/hooks'), /would change git's hooks/],
    [remove('.git'), /would remove git's hooks/],
    [remove('.claude'), /would change Claude Code's settings/],
    [write('.git/config'), /would change git's configuration/],
    [write('.holdfast/allow.json'), /would change holdfast's own state/],
    [remove('.holdfast/audit.jsonl'), /would change holdfast's own state/],
    [write('holdfast.rules.yaml'), /would change the rulebook/],
    [write('src/../.claude/settings.json'), /Claude Code's settings/],
    [write('../home/.codex/config.toml'), /Codex's user settings/],
  ])('refuses %j', (action, detail) => {
    const [finding] = tamperFindings([action], project, places);
    expect(finding).toMatchObject({ rule: 'GATE', name: 'TAMPER' });
    expect(finding?.detail).toMatch(detail);
  });

  it.each([
    write('src/a.ts'),
    write('.gitignore'),
    write('.git-blame-ignore-revs'),
    write('docs/.claude.md'),
    write('.github/workflows/ci.yml'),
    write('.git/info/exclude'),
    remove('src/a.ts'),
  ])('lets %j through (the rules judge it)', (action) => {
    expect(tamperFindings([action], project, places)).toEqual([]);
  });

  it('finds every tampering action of one call', () => {
    expect(tamperFindings([write('.claude/settings.json'), write('src/a.ts'), remove('.git/hooks/pre-commit')], project, places)).toHaveLength(2);
  });

  it('folds case on a case-insensitive volume only', () => {
    const folded = setup({ caseInsensitive: true });
    expect(tamperFindings([write('.CLAUDE/settings.json'), write('.Git/Hooks/pre-commit')], folded.project, folded.places)).toHaveLength(2);
    expect(tamperFindings([write('.CLAUDE/settings.json')], project, places)).toEqual([]);
  });

  it("protects a worktree's real git directory, named by the .git file", () => {
    const base = mkdtempSync(join(tmpdir(), 'holdfast-worktree-'));
    const main = join(base, 'main', '.git');
    const linked = join(main, 'worktrees', 'wt');
    mkdirSync(join(linked), { recursive: true });
    writeFileSync(join(linked, 'commondir'), '../..\n');
    const root = join(base, 'wt');
    mkdirSync(root);
    writeFileSync(join(root, '.git'), `gitdir: ${linked}\n`);
    const project = projectRoot(root, { caseInsensitive: false });
    const worktreePlaces = protectedPlaces(project, { rulebookFile: undefined, home: undefined });
    expect(tamperFindings([write('../main/.git/hooks/pre-commit'), write('../main/.git/config')], project, worktreePlaces)).toHaveLength(2);
  });
});
