import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

// rulebook init, install and doctor, end to end: what doctor says of a rulebook drafted from a real file.
describe('holdfast doctor tells the truth about what the gate holds', () => {
  const corpusFile = (dir: string, file: string) => new URL(`../../../../fixtures/rule-files/${dir}/${file}`, import.meta.url);

  async function projectWithDraft(dir: string, file: string): Promise<string> {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-doctor-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    copyFileSync(corpusFile(dir, file), join(root, file));
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['rulebook', 'init', '--out', 'rulebook.yaml'], io)).toBe(0);
    mkdirSync(join(root, 'holdfast'));
    renameSync(join(root, 'rulebook.yaml'), join(root, 'holdfast', 'rulebook.yaml'));
    return root;
  }

  async function doctor(root: string): Promise<{ code: number; out: string }> {
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    const code = await main(['doctor'], io);
    return { code, out: io.out() };
  }

  it('a rulebook with no enforced rule is not "All good": exit 1, and the prose-only rules are counted and named', async () => {
    const root = await projectWithDraft('claude-code-action', 'CLAUDE.md');
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['install', 'claude-code'], io)).toBe(0);
    expect(readFileSync(join(root, '.claude', 'settings.json'), 'utf8')).toMatch(/--rulebook[^,]*holdfast\/rulebook\.yaml/);
    const { code, out } = await doctor(root);
    expect(code).toBe(1);
    expect(out).not.toMatch(/All good/);
    expect(out).toMatch(/holdfast\/rulebook\.yaml loads: 0 block, 0 warn, \d+ prose only \(R1 [A-Z-]+, R2 /);
    expect(out).toMatch(/FAIL {2}holdfast\/rulebook\.yaml enforces nothing: none of its \d+ rules has a check the gate runs/);
  });

  it('a husky repository (core.hooksPath): the fix installs the project rulebook where git looks, never the shipped demo', async () => {
    const root = await projectWithDraft('vercel-ai', 'AGENTS.md');
    execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: root });
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['install', 'claude-code', '--no-git'], io)).toBe(0);
    const { code, out } = await doctor(root);
    expect(code).toBe(1);
    expect(out).toMatch(/git runs hooks from \.husky: core\.hooksPath/);
    expect(out).toContain('-> run `holdfast install git --rulebook holdfast/rulebook.yaml` from the project root');
    expect(out).toMatch(/loads: 0 block, 3 warn \(R\d+ NO-JSON-PARSE, R\d+ NO-REQUIRE, R\d+ PROTECTED\), \d+ prose only/);
    expect(out).not.toMatch(/rulebooks\/default|shipped/);
  });

  it('a drafted rulebook that only warns and was never tried is NOT YET, never "All good"; tried and promoted, it holds', async () => {
    const root = await projectWithDraft('vercel-ai', 'AGENTS.md');
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--no-verify', '-m', 'start'], { cwd: root });
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['install', 'claude-code'], io)).toBe(0);
    const drafted = await doctor(root);
    expect(drafted.code).toBe(0);
    expect(drafted.out).not.toMatch(/All good/);
    expect(drafted.out).toMatch(/NOT YET {2}nothing blocks yet: every checked rule is at warn/);
    expect(drafted.out).toMatch(/NOT YET {2}the rulebook was never tried on this repository's history/);
    expect(drafted.out).toMatch(/Installed and working, but the gate does not hold yet: nothing blocks yet; the rulebook was never tried/);
    const tried = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['rulebook', 'try'], tried)).toBe(0);
    const id = /loads: 0 block, 3 warn \((R\d+) NO-JSON-PARSE/.exec(drafted.out)?.[1] ?? '';
    const promote = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['rulebook', 'promote', id], promote)).toBe(0);
    const promoted = await doctor(root);
    expect(promoted.out).toMatch(new RegExp(`loads: 1 block \\(${id} NO-JSON-PARSE\\), 2 warn`));
    expect(promoted.out).not.toMatch(/NOT YET/);
    expect(promoted.out).toMatch(/All good/);
  });

  it('a missing rulebook: install and the hook refuse and say what to do; doctor proposes holdfast init, never the demo', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-doctor-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    const install = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(await main(['install', 'claude-code'], install)).toBe(2);
    expect(install.err()).toMatch(/has no holdfast\/rulebook\.yaml and no --rulebook was given; run `holdfast init`/);
    const hook = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' }, input: '{}' });
    expect(await main(['hook', 'git'], hook)).toBe(2);
    expect(hook.err()).toMatch(/run `holdfast init`[^]*every call is refused/);
    const { code, out } = await doctor(root);
    expect(code).toBe(1);
    expect(out).toContain(
      'run `holdfast init` (it drafts holdfast/rulebook.yaml from your AGENTS.md), then `holdfast install claude-code --rulebook holdfast/rulebook.yaml`',
    );
  });
});
