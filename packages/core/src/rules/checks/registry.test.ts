import { describe, expect, it } from 'vitest';
import { parseRulebook } from '../parse-rulebook.js';
import { checkActions } from '../check-actions.js';
import { defaultRulebookPath } from '../default-rulebook-path.js';
import { CHECK_HANDLERS, checkReads, checkTiming, countsAsRequiredRun, requiredCommands, rulesDecidedAt } from './registry.js';
import { readFileSync } from 'node:fs';

const rulebook = parseRulebook(
  [
    'version: 1',
    'rules:',
    "  - { id: S1, name: SCOPE, prose: Only src., check: { kind: scope, allow: ['src/**'] } }",
    "  - { id: T1, name: TESTS, prose: Tests ship with modules., check: { kind: sibling-test, modules: ['src/**/*.ts'], exempt: [], tests: ['{dir}/{stem}.test.ts'] } }",
    "  - { id: R6, name: ORDER, prose: Tests before a commit., check: { kind: order, command: '^npm test$', example: npm test } }",
    '  - { id: R7, name: CHECKS, prose: Lint and types before a commit., check: { kind: requires, commands: [{ run: [npm run lint, pnpm lint], name: the lint }, { run: [pnpm type-check] }] } }',
    '',
  ].join('\n'),
  'r.yaml',
);

describe('what the registry says about a kind', () => {
  it('every kind has a description and says when a session decides it', () => {
    for (const handler of Object.values(CHECK_HANDLERS)) {
      expect(handler.description).toMatch(/^[A-Z].*\.$/);
      expect(['action', 'commit', 'change']).toContain(handler.timing);
      // Only a kind decided at a commit requires commands.
      expect(handler.requires !== undefined).toBe(handler.timing === 'commit');
    }
    expect(rulebook.rules.map((rule) => checkTiming(rule.check))).toEqual(['action', 'change', 'commit', 'commit']);
    expect([...rulesDecidedAt(rulebook, 'commit')]).toEqual(['R6', 'R7']);
  });

  it('one list of the commands a rulebook requires, each with the rule that requires it and how a run counts', () => {
    expect(requiredCommands(rulebook).map((command) => [command.rule.id, command.name, command.example])).toEqual([
      ['R6', 'the test command (npm test)', 'npm test'],
      ['R7', 'the lint', 'npm run lint'],
      ['R7', '`pnpm type-check`', 'pnpm type-check'],
    ]);
    const counts = countsAsRequiredRun(rulebook);
    expect(['npm test', 'pnpm lint', 'npm run lint', 'pnpm type-check'].map(counts)).toEqual([true, true, true, true]);
    // A run elsewhere than the project root, or another command, counts for no rule.
    expect(['npm test --prefix elsewhere', 'cd web && npm test', 'npm run build'].map(counts)).toEqual([false, false, false]);
  });

  it("a kind that reads one file alone judges a write the same alone as beside others (verify keeps such a verdict by the file's content)", async () => {
    const shipped = parseRulebook(readFileSync(defaultRulebookPath(), 'utf8'), 'default.yaml');
    const perFile = { ...shipped, rules: shipped.rules.filter((rule) => checkReads(rule.check) === 'file') };
    expect(perFile.rules.map((rule) => rule.id)).toEqual(['R1', 'R4', 'R5']);
    const writes = [
      { type: 'write' as const, path: 'src/a.ts', content: `const key = 'gh' + 'p_R8fK2mQ9xL4vT7nW1pZ6cB3hJ5dY0gS8aE2u';\nconsole.log(key);\n` },
      { type: 'write' as const, path: 'src/b.ts', content: "import axios from 'axios';\nexport const get = () => axios.get('/');\n" },
      { type: 'write' as const, path: 'notes.md', content: 'nothing to see\n' },
    ];
    const together = await checkActions(writes, [], perFile);
    for (const [index, write] of writes.entries()) {
      const alone = await checkActions([write], [], perFile);
      expect(alone.map(({ rule, ok, detail }) => ({ rule, ok, detail }))).toEqual(
        together.filter((result) => result.actionIndex === index).map(({ rule, ok, detail }) => ({ rule, ok, detail })),
      );
    }
    // Somewhere in the round a rule broke: the comparison is of verdicts, not of silence.
    expect(together.some((result) => !result.ok)).toBe(true);
    expect(Object.values(CHECK_HANDLERS).every((handler) => ['paths', 'file', 'round'].includes(handler.reads))).toBe(true);
  });
});
