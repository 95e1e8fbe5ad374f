import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRulebook } from '@holdfast/core/rules';
import { CORPUS_FACTS } from './draft-precision.js';
import { MAX_DRAFTED_RULES, draftRulebook } from './draft-rulebook.js';
import { MAX_RULE_FILE_BYTES, findRuleFiles, readRuleFiles } from './rule-files.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-rule-files-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

const RULES = ['# Rules', '', '- Never use `console.log` in library code.', '- Run `pnpm lint` before committing.', '- Keep PRs small.', ''];

describe('reading a rule file, ordinary or hostile', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s line endings draft the same rules, and the draft loads', async (_name, ending) => {
    const dir = repo({ 'AGENTS.md': RULES.join(ending) });
    const files = await readRuleFiles(findRuleFiles(dir), dir);
    const drafted = draftRulebook(files, CORPUS_FACTS);
    expect(drafted.rules.map((rule) => `${rule.kind} ${rule.span.lines[0]}`)).toEqual(['forbidden-pattern 3', 'requires 4', 'prose 5']);
    expect(parseRulebook(drafted.yaml, 'rulebook.yaml').rules).toHaveLength(2);
  });

  it('a CLAUDE.md linked to a file outside the repository is refused, and nothing of it is copied', async () => {
    const outside = repo({ 'secret-notes.md': '- Never use `eval`.\n' });
    const dir = repo({});
    symlinkSync(join(outside, 'secret-notes.md'), join(dir, 'CLAUDE.md'));
    await expect(readRuleFiles(findRuleFiles(dir), dir)).rejects.toThrow(/CLAUDE\.md is a link to .*secret-notes\.md, which lies outside the repository/);
    await expect(readRuleFiles([join(outside, 'secret-notes.md')], dir)).rejects.toThrow(/lies outside the repository/);
  });

  it('a CLAUDE.md linked to AGENTS.md inside the repository is read once', async () => {
    const dir = repo({ 'AGENTS.md': RULES.join('\n') });
    mkdirSync(join(dir, 'docs'));
    symlinkSync('../AGENTS.md', join(dir, 'docs', 'CLAUDE.md'));
    const files = await readRuleFiles([join(dir, 'AGENTS.md'), join(dir, 'docs', 'CLAUDE.md')], dir);
    expect(files.map((file) => file.path)).toEqual(['AGENTS.md']);
  });

  it(`a rule file over ${MAX_RULE_FILE_BYTES / 1024} KiB is refused with the fix, before it is read whole`, async () => {
    const dir = repo({ 'AGENTS.md': `# Rules\n\n${'- Keep it short.\n'.repeat(MAX_RULE_FILE_BYTES / 16 + 1)}` });
    await expect(readRuleFiles(findRuleFiles(dir), dir)).rejects.toThrow(/AGENTS\.md is larger than 256 KiB.*split it/);
  });

  it(`more than ${MAX_DRAFTED_RULES} rules are refused, not drafted one by one`, () => {
    const text = `# Rules\n\n${'- Keep it short.\n'.repeat(MAX_DRAFTED_RULES + 1)}`;
    expect(() => draftRulebook([{ path: 'AGENTS.md', text }], CORPUS_FACTS)).toThrow(/more than 1000 list items and paragraphs/);
  });

  it('a key quoted in the rule file is masked before anything is copied from it', async () => {
    const key = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    const dir = repo({ 'AGENTS.md': `# Rules\n\n- Use the bot token ${key} for the release job; never commit other secrets.\n` });
    const files = await readRuleFiles(findRuleFiles(dir), dir);
    const drafted = draftRulebook(files, CORPUS_FACTS);
    expect(drafted.yaml).not.toContain(key);
    expect(files[0]?.text).not.toContain(key);
    expect(parseRulebook(drafted.yaml, 'rulebook.yaml').sourceFiles?.[0]?.text).toBe(files[0]?.text);
  });
});
