import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { makeGitRepo } from '@holdfast/lab/test-support';
import { main } from '../main.js';

const dirs: string[] = [];
function repoWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-rulebook-init-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('holdfast rulebook init', () => {
  it('drafts from the repository AGENTS.md into --out, and `rulebook render` of the draft carries every rule verbatim', async () => {
    const dir = repoWith({ 'package.json': '{"scripts":{"test":"vitest run"}}\n', 'pnpm-lock.yaml': '', 'src/index.ts': '', 'src/index.test.ts': '' });
    copyFileSync(fileURLToPath(new URL('../../../../fixtures/rule-files/AGENTS.md', import.meta.url)), join(dir, 'AGENTS.md'));
    const io = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'init', '--out', 'rulebook.yaml', '--json'], io)).toBe(0);
    const summary = JSON.parse(io.out()) as { file: string; rules: { id: string; kind: string; source: string }[] };
    expect(summary.file).toBe(join(dir, 'rulebook.yaml'));
    expect(summary.rules.filter((rule) => rule.kind !== 'prose').map((rule) => rule.kind)).toEqual([
      'paths',
      'forbidden-pattern',
      'forbidden-pattern',
      'sibling-test',
      'order',
      'http-helper',
      'secret',
      'scope',
    ]);
    expect(summary.rules[0]?.source).toBe('AGENTS.md line 8, under "Setup"');

    const rendered = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'render', '--rulebook', 'rulebook.yaml'], rendered)).toBe(0);
    const yaml = readFileSync(join(dir, 'rulebook.yaml'), 'utf8');
    expect(yaml).toMatch(/# draft R3 .*check "forbidden-pattern" proposed/);
    for (const line of [
      'Never use `console.log` in library code. Use the `debug` helper from `src/util/debug.ts` instead.',
      'Prefer named exports; no default exports.',
      'Run `pnpm test` before you commit, and make sure it passes.',
    ]) {
      expect(rendered.out()).toContain(line);
    }

    const again = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'init', '--out', 'rulebook.yaml'], again)).toBe(2);
    expect(again.err()).toMatch(/rulebook\.yaml already exists; pick another --out/);
  });

  it('prints the draft without --out, from the files named with --from', async () => {
    const dir = repoWith({
      'CLAUDE.md': '- Always run `npm test` before committing.\n',
      '.cursor/rules/style.mdc': '---\nglobs: src/**\n---\n- Never use `var`.\n',
    });
    const io = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'init', '--from', 'CLAUDE.md', '--from', '.cursor/rules/style.mdc'], io)).toBe(0);
    expect(io.out()).toMatch(/^# Drafted by `holdfast rulebook init` from CLAUDE\.md, \.cursor\/rules\/style\.mdc: 2 rules/);
    expect(io.out()).toMatch(/command: \^npm \(run \)\?test\\b/);
  });

  it('says what to do when there is no rule file, or it holds no rules', async () => {
    const none = memoryIo({ cwd: repoWith({ 'README.md': 'hi\n' }) });
    expect(await main(['rulebook', 'init'], none)).toBe(2);
    expect(none.err()).toMatch(/has no AGENTS\.md, CLAUDE\.md.*name your rule file with --from FILE/);
    const empty = memoryIo({ cwd: repoWith({ 'AGENTS.md': '# Agents\n\nThis project is a parser.\n' }) });
    expect(await main(['rulebook', 'init'], empty)).toBe(2);
    expect(empty.err()).toMatch(/AGENTS\.md: no rules found .*write each rule as a bullet/);
  });

  it('without --from, finds the rule files as init does: a CLAUDE.md import, a nested AGENTS.md scoped to its folder, never a link out of the repository', async () => {
    const outside = repoWith({ 'notes.md': '- Never use `eval`.\n' });
    const dir = makeGitRepo(
      {
        'CLAUDE.md': '# Rules\n\nSee @docs/agent-rules.md for the rest.\n\n- Never use `console.log` in library code.\n',
        'docs/agent-rules.md': '- Run `npm test` before you commit.\n',
        'packages/web/AGENTS.md': '# Web\n\n- Never use `var`.\n',
        'packages/web/src/index.ts': 'export const web = 1;\n',
      },
      'holdfast-rulebook-init-discover-',
    );
    dirs.push(dir);
    symlinkSync(join(outside, 'notes.md'), join(dir, 'AGENTS.md'));
    const io = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'init', '--out', 'rulebook.yaml', '--json'], io)).toBe(0);
    const summary = JSON.parse(io.out()) as { rules: { id: string; kind: string; source: string }[]; notes: string[] };
    expect(summary.rules.map((rule) => rule.source.split(' ')[0])).toEqual(['CLAUDE.md', 'docs/agent-rules.md', 'packages/web/AGENTS.md']);
    expect(summary.notes).toEqual([expect.stringMatching(/^AGENTS\.md is a link to .*notes\.md, outside the repository: not read/)]);
    const yaml = readFileSync(join(dir, 'rulebook.yaml'), 'utf8');
    expect(yaml).not.toContain('eval');
    expect(yaml).toMatch(/files:\n\s+- packages\/web\//);

    const printed = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'init'], printed)).toBe(0);
    expect(printed.err()).toMatch(/^note: AGENTS\.md is a link to .*outside the repository: not read/m);
  });
});
