import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { parseRulebook } from '@holdfast/core/rules';
import { commitFiles, git, gitTestEnv } from '@holdfast/gate/test-support';
import { main } from '../main.js';

const RULEBOOK = [
  'version: 1',
  'rules:',
  '  # draft F1: a drafted check, noisy on this history',
  '  - id: F1',
  '    name: NOLATER',
  '    prose: Never write LATER.',
  '    enforcement: warn',
  "    check: { kind: forbidden-pattern, patterns: ['LATER'], what: a LATER, files: ['notes/**'] }",
  '  - id: Q1',
  '    name: NOTODO',
  '    prose: Never write TODO.',
  '    enforcement: warn',
  "    check: { kind: forbidden-pattern, patterns: ['TODO'], what: a TODO, files: ['notes/**'] }",
  '  - id: C1',
  '    name: NOFORCE',
  '    prose: Never force-push.',
  '    enforcement: warn',
  '    check: { kind: command, forbid: [{ command: git push, flags: [--force] }] }',
  '',
].join('\n');

/** A repository with 20 commits of the team's own history, 2 of them (10 %) writing LATER. */
function teamRepository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-promote-'));
  git(root, 'init', '-q', '-b', 'main');
  mkdirSync(join(root, 'holdfast'));
  writeFileSync(join(root, 'holdfast', 'rulebook.yaml'), RULEBOOK);
  for (let index = 0; index < 18; index += 1) commitFiles(root, { [`notes/n${index}.txt`]: `note ${index}\n` }, `note ${index}`);
  commitFiles(root, { 'notes/a.txt': 'do this LATER\n' }, 'later one');
  commitFiles(root, { 'notes/b.txt': 'and this LATER\n' }, 'later two');
  return root;
}

async function holdfast(root: string, ...args: string[]) {
  const io = memoryIo({ cwd: root, env: gitTestEnv() });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

function enforcement(root: string, id: string): string | undefined {
  return parseRulebook(readFileSync(join(root, 'holdfast', 'rulebook.yaml'), 'utf8'), 'rulebook.yaml').rules.find((rule) => rule.id === id)?.enforcement;
}

describe('holdfast rulebook promote', () => {
  it('refuses a rule never tried, and a check `rulebook try` marks probably wrong on the real history, saying why and how to override', async () => {
    const root = teamRepository();
    const untried = await holdfast(root, 'rulebook', 'promote', 'Q1');
    expect(untried.code).toBe(1);
    expect(untried.err).toMatch(/Q1 NOTODO was never tried on this repository's history: run `holdfast rulebook try`/);
    expect(enforcement(root, 'Q1')).toBe('warn');

    const tried = await holdfast(root, 'rulebook', 'try', '--commits', '20');
    expect(tried.code).toBe(0);
    expect(tried.out).toMatch(/F1 NOLATER refuses 2 of 20 commits: probably wrong/);
    expect(tried.out).toMatch(/not judged: C1 NOFORCE: a commit holds files, not the commands that were run/);

    const noisy = await holdfast(root, 'rulebook', 'promote', 'F1');
    expect(noisy.code).toBe(1);
    expect(noisy.err).toMatch(/F1 NOLATER refused 2 of the last 20 commits tried, more than 5 %: the check is probably wrong/);
    expect(noisy.err).toMatch(/--force promotes it anyway; the trial record is holdfast\/rulebook\.trials\.json/);
    expect(enforcement(root, 'F1')).toBe('warn');

    const command = await holdfast(root, 'rulebook', 'promote', 'C1');
    expect(command.code).toBe(1);
    expect(command.err).toMatch(/a history of commits cannot judge C1 NOFORCE .*its warnings in \.holdfast\/audit\.jsonl are its trial/);

    const quiet = await holdfast(root, 'rulebook', 'promote', 'Q1');
    expect(quiet.code).toBe(0);
    expect(quiet.out).toMatch(/Q1 NOTODO now blocks in holdfast\/rulebook\.yaml \(it refused 0 of the last 20 commits tried\)/);
    expect(enforcement(root, 'Q1')).toBe('block');
    // The YAML is edited in place: the draft note stays, the other rules keep their level.
    expect(readFileSync(join(root, 'holdfast', 'rulebook.yaml'), 'utf8')).toContain('# draft F1: a drafted check, noisy on this history');
    expect(enforcement(root, 'F1')).toBe('warn');

    const forced = await holdfast(root, 'rulebook', 'promote', 'F1', '--force');
    expect(forced.code).toBe(0);
    expect(forced.out).toMatch(/F1 NOLATER now blocks .*\(forced: F1 NOLATER refused 2 of the last 20/);
    expect(enforcement(root, 'F1')).toBe('block');
  });

  it('a check edited after its trial is untried again; an unknown rule is bad input', async () => {
    const root = teamRepository();
    expect((await holdfast(root, 'rulebook', 'try', '--commits', '20')).code).toBe(0);
    const file = join(root, 'holdfast', 'rulebook.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace("patterns: ['TODO']", "patterns: ['TODO', 'FIXME']"));
    const edited = await holdfast(root, 'rulebook', 'promote', 'Q1');
    expect(edited.code).toBe(1);
    expect(edited.err).toMatch(/was never tried on this repository's history \(or its check changed since it was\)/);
    const unknown = await holdfast(root, 'rulebook', 'promote', 'R9');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/has no rule R9 with a check \(rules: F1, Q1, C1\)/);
  });
});
