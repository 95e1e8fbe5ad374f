import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkActions, parseRulebook, renderRulebook } from '@holdfast/core/rules';
import { draftRulebook } from './draft-rulebook.js';
import type { DraftedRulebook } from './draft-rulebook.js';
import { repoFacts } from './repo-facts.js';

/** A pnpm TypeScript library with sibling tests, like the one the AGENTS.md fixture describes. */
const facts = repoFacts(
  [
    'pnpm-lock.yaml',
    'package.json',
    'src/index.ts',
    'src/index.test.ts',
    'src/parse/table.ts',
    'src/parse/table.test.ts',
    'src/net/fetch-text.ts',
    'test/snapshots/a.snap',
  ],
  '{"name":"quillmark","scripts":{"test":"vitest run"}}',
);

function ruleFile(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../../fixtures/rule-files/${name}`, import.meta.url)), 'utf8');
}

function draft(path: string, text: string): DraftedRulebook {
  return draftRulebook([{ path, text }], facts);
}

function kinds(drafted: DraftedRulebook): string[] {
  return drafted.rules.map((rule) => `${rule.kind}: ${rule.prose.split('\n')[0]?.slice(0, 30) ?? ''}`);
}

/** The draft loads as a rulebook, its rendered AGENTS.md is the rule file as written, and the rules keep their prose verbatim. */
function expectLoadsAndRendersProse(drafted: DraftedRulebook, originals: readonly string[]): void {
  const loaded = parseRulebook(drafted.yaml, 'draft.yaml');
  expect(loaded).toEqual(drafted.rulebook);
  expect(renderRulebook(loaded)).toBe(loaded.sourceFiles?.map((file) => file.text).join('\n'));
  const prose = [...loaded.rules, ...(loaded.proseRules ?? [])].map((rule) => rule.prose).join('\n\n');
  for (const original of originals) expect(`${prose}\n\n${loaded.description ?? ''}`).toContain(original);
}

describe('draftRulebook', () => {
  it('a mixed AGENTS.md (headings, bullets, nested bullets, a numbered list, paragraphs, code): one rule per item and instruction', () => {
    const drafted = draft('AGENTS.md', ruleFile('AGENTS.md'));
    expect(kinds(drafted)).toEqual([
      'paths: Use `pnpm` (the version pinned',
      'forbidden-pattern: TypeScript strict mode is on. ',
      'forbidden-pattern: Never use `console.log` in lib',
      'prose: Prefer named exports; no defau',
      'prose: Keep functions small and pure ',
      'sibling-test: Every new module in `src/` shi',
      'order: Run `pnpm test` before you com',
      'prose: Snapshot tests live in `test/s',
      'http-helper: All HTTP requests (the remote ',
      'secret: Never hardcode API keys or tok',
      'scope: Only edit files under `src/`, ',
      'prose: Write commit messages in the i',
    ]);
    expectLoadsAndRendersProse(drafted, [
      'Never use `console.log` in library code. Use the `debug` helper from `src/util/debug.ts` instead.',
      'Keep functions small and pure where you can. Parsers take a string and return a node, they\nnever throw on malformed input:\n- return an `ErrorNode` with the offending range,\n- and let the caller decide.',
      'Run `pnpm test` before you commit, and make sure it passes.',
      'regenerate it with:\n\n```sh\npnpm gen:entities\n```',
      'Quillmark is a Markdown-to-AST parser written in strict TypeScript.',
    ]);
    // Context paragraphs describe the project: they become the description, not rules.
    expect(drafted.rulebook.description).toMatch(/^Quillmark is a Markdown-to-AST parser[^]*Coverage is reported by Vitest/);
  });

  it('fills parameters from the repository and says per rule what it guessed and why', () => {
    const drafted = draft('AGENTS.md', ruleFile('AGENTS.md'));
    const byKind = new Map(drafted.rulebook.rules.map((rule) => [rule.check.kind, rule.check]));
    expect(byKind.get('order')).toEqual({ kind: 'order', command: '^pnpm (run )?test\\b', example: 'pnpm test' });
    expect(byKind.get('sibling-test')).toMatchObject({ modules: ['src/**/*.ts'], tests: ['{dir}/{stem}.test.{ext}'] });
    expect(byKind.get('http-helper')).toMatchObject({ helper: 'src/net/fetch-text.ts', folders: ['src/**'] });
    expect(byKind.get('scope')).toEqual({ kind: 'scope', allow: ['src/**', 'test/**', 'docs/**'] });
    expect(drafted.yaml).toMatch(
      /# draft R7 \(AGENTS\.md line 24, under "Testing"\): check "order" proposed: asks for tests before a commit; test command "pnpm test" from the command the rule names\./,
    );
    expect(drafted.yaml).toMatch(
      /# draft R6 \(AGENTS\.md line 23, under "Testing"\): check "sibling-test" proposed: .*\(the repository has 2 sibling \*\.test\.\* files\)/,
    );
    expect(drafted.yaml).toMatch(
      /# draft R1 \(AGENTS\.md line 8, under "Setup"\): check "paths" proposed: protects \*\*\/package-lock\.json, \*\*\/yarn\.lock /,
    );
    expect(drafted.yaml.match(/# draft R\d+ /g)).toHaveLength(drafted.rules.length);
  });

  it('the drafted checks really judge: console.log and a new module without a test are violations, a clean write is not', async () => {
    const rulebook = parseRulebook(draft('AGENTS.md', ruleFile('AGENTS.md')).yaml, 'draft.yaml');
    const results = await checkActions(
      [
        { type: 'write', path: 'src/parse/list.ts', content: 'export function list(x: string) {\n  console.log(x);\n}\n' },
        { type: 'write', path: 'src/index.ts', content: 'export const ok = 1;\n' },
      ],
      ['src/index.ts'],
      rulebook,
    );
    const failed = results.filter((result) => !result.ok).map((result) => `${result.actionIndex} ${result.rule}`);
    expect(failed).toEqual(['0 R3', '0 R6']);
  });

  it('a CLAUDE.md with `*` bullets: the test command comes from package.json when the rule names none', () => {
    const drafted = draft('CLAUDE.md', ruleFile('CLAUDE.md'));
    expect(kinds(drafted)).toEqual([
      'order: IMPORTANT: always run the test',
      "dependency: Don't add new dependencies wit",
      'secret: Secrets live in `.env.local`, ',
    ]);
    expect(drafted.yaml).toMatch(/test command "pnpm test" from package\.json scripts\.test \("vitest run"\), run with pnpm/);
    expect(drafted.rulebook.description).toMatch(/^This file guides Claude Code[^]*npm run dev/);
    expectLoadsAndRendersProse(drafted, ['IMPORTANT: always run the tests before committing.', "Don't add new dependencies without asking."]);
  });

  it('Copilot instructions written as paragraphs: instructions become rules, the rest the description', () => {
    const drafted = draft('.github/copilot-instructions.md', ruleFile('copilot-instructions.md'));
    expect(kinds(drafted)).toEqual([
      'prose: We use TypeScript and React fo',
      'sibling-test: Always write a unit test for e',
      'http-helper: Avoid `axios`; our API client ',
      'prose: When you are unsure about a co',
    ]);
    expect(drafted.rulebook.rules.find((rule) => rule.check.kind === 'http-helper')?.check).toMatchObject({ helper: 'src/api/client.ts' });
    expectLoadsAndRendersProse(drafted, ['Avoid `axios`; our API client in `src/api/client.ts` wraps fetch and must be used for all API calls.']);
  });

  it('a Cursor rule: the front matter is not prose, its globs are noted, `export *` becomes a forbidden pattern', () => {
    const drafted = draft('.cursor/rules/no-barrel-files.mdc', ruleFile('cursor-rules/no-barrel-files.mdc'));
    expect(kinds(drafted)).toEqual(["forbidden-pattern: Don't use `export *` barrel fi", 'prose: Use the `@/` path alias instea']);
    expect(drafted.yaml).toMatch(/the Cursor rule applies to src\/web\/\*\*\/\*\.tsx/);
    // The told arm reads the Cursor rule as written, front matter and all.
    expect(renderRulebook(drafted.rulebook)).toBe(ruleFile('cursor-rules/no-barrel-files.mdc'));
    expectLoadsAndRendersProse(drafted, ["Don't use `export *` barrel files; import from the module itself."]);
  });

  it('numbered lists with `1)` markers, multi-line items and a rule file with no headings at all', () => {
    const text = '1) Never commit secrets or `.env` files.\n2) Only change files in `lib/`\n   and nothing else.\n\n3) Keep PRs small.\n';
    const drafted = draftRulebook([{ path: 'AGENTS.md', text }], repoFacts(['lib/a.js', 'package.json'], '{"scripts":{"test":"node --test"}}'));
    expect(kinds(drafted)).toEqual(['secret: Never commit secrets or `.env`', 'scope: Only change files in `lib/`', 'prose: Keep PRs small.']);
    expect(drafted.rulebook.rules[1]?.prose).toBe('Only change files in `lib/`\nand nothing else.');
    expectLoadsAndRendersProse(drafted, ['Only change files in `lib/`\nand nothing else.']);
  });

  it('a "Do not" heading turns its items into prohibitions; tables and bold-label facts are context, not rules', async () => {
    const text = [
      '## Commands',
      '',
      '| Command | Description |',
      '| --- | --- |',
      '| `pnpm test` | Run all tests |',
      '',
      '## Testing',
      '',
      '- **Framework**: Vitest',
      '',
      '## Do Not',
      '',
      '- Use `require()` for imports',
      '- Add minor/major changesets',
      '',
    ].join('\n');
    const drafted = draft('AGENTS.md', text);
    // The heading's negation stays with each rule: the rule reads as the team meant it.
    expect(kinds(drafted)).toEqual(['forbidden-pattern: Do Not: Use `require()` for im', 'prose: Do Not: Add minor/major change']);
    expect(drafted.rulebook.description).toBe('| Command | Description |\n| --- | --- |\n| `pnpm test` | Run all tests |\n\n- **Framework**: Vitest');
    const rulebook = parseRulebook(drafted.yaml, 'draft.yaml');
    const results = await checkActions([{ type: 'write', path: 'src/a.ts', content: "const fs = require ('node:fs');\n" }], [], rulebook);
    expect(results.filter((result) => !result.ok).map((result) => result.rule)).toEqual(['R1']);
  });

  it('several files draft one rulebook with unique names', () => {
    const drafted = draftRulebook(
      [
        { path: 'AGENTS.md', text: '- Run `npm test` before committing.\n- No `console.log`.\n' },
        { path: 'CLAUDE.md', text: '- Always run the tests before you commit.\n' },
      ],
      facts,
    );
    expect(drafted.rulebook.rules.map((rule) => `${rule.id} ${rule.name}`)).toEqual(['R1 ORDER', 'R2 NO-CONSOLE-LOG', 'R3 ORDER-2']);
    expect(drafted.yaml).toMatch(/^# Drafted by `holdfast rulebook init` from AGENTS\.md, CLAUDE\.md: 3 rules, 3 with a proposed check, 0 prose only/);
    parseRulebook(drafted.yaml, 'draft.yaml');
  });
});
