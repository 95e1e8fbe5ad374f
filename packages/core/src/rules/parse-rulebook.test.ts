import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../contract/index.js';
import { defaultRulebookPath, loadRulebook } from './load-rulebook.js';
import { checkRecordedRulebook, parseRulebook, safeParseRulebook } from './parse-rulebook.js';
import { renderRulebook } from './render-rulebook.js';
import { RulebookError } from './rulebook-error.js';

const FILE = 'rulebooks/x.yaml';

const rule = (id: string, check: string) => `  - id: ${id}\n    name: N${id}\n    prose: The rule.\n    check:\n${check}`;
const book = (...rules: string[]) => `version: 1\nrules:\n${rules.join('\n')}\n`;
const forbidden = (patterns: string) => `      kind: forbidden-pattern\n      patterns: ${patterns}\n      what: a console.log call\n      files: ['src/**']\n`;

function refusal(text: string): string {
  const parsed = safeParseRulebook(text, FILE);
  if (parsed.ok) throw new Error('expected the rulebook to be refused');
  expect(parsed.error).toBeInstanceOf(InputError);
  return parsed.error.message;
}

describe('parseRulebook', () => {
  it('loads the shipped default: six rules and the agents that claim them', async () => {
    const rulebook = await loadRulebook();
    expect(rulebook.rules.map((entry) => `${entry.id} ${entry.name}`)).toEqual(['R1 SECRET', 'R2 SCOPE', 'R3 TESTS', 'R4 NOLOG', 'R5 HTTP', 'R6 ORDER']);
    expect(rulebook.agents.map((agent) => agent.id)).toEqual(['implementer', 'reviewer', 'release']);
    expect(rulebook.agents[0]?.rules).toHaveLength(6);
  });

  it('refuses a pattern that does not compile, naming file, rule, field and what to write', () => {
    expect(refusal(book(rule('R4', forbidden(`['console', '(']`))))).toBe(
      'rulebooks/x.yaml: rule R4, field check.patterns[1] (line 8): "(" is not a regular expression RE2 accepts (missing closing ): `(`); write an RE2 regular expression (JavaScript syntax without lookaround or backreferences), e.g. "console\\\\.log\\\\s*\\\\(". Rulebook patterns run on RE2 so that matching takes linear time on any input',
    );
  });

  it('refuses lookaround and backreferences (RE2 cannot run them), saying what to write instead', () => {
    expect(refusal(book(rule('R4', forbidden(`['console(?!\\.error)']`))))).toMatch(/rule R4, field check\.patterns\[0\].*RE2 has no lookahead or lookbehind/);
    expect(refusal(book(rule('R6', "      kind: order\n      command: '(npm) \\1'\n")))).toMatch(/rule R6, field check\.command.*RE2 has no backreferences/);
  });

  it('accepts patterns that backtrack on other engines: RE2 runs them in linear time', () => {
    expect(safeParseRulebook(book(rule('R4', forbidden(`['^(a|aa)*$', '(a+)+b']`))), FILE).ok).toBe(true);
  });

  it('refuses an unknown check kind, listing the kinds', () => {
    expect(refusal(book(rule('R9', '      kind: exec\n')))).toMatch(
      /rule R9, field check\.kind \(line \d+\): "exec" is not a check kind; write one of secret, scope, sibling-test, forbidden-pattern, http-helper, order/,
    );
  });

  it('refuses a missing parameter', () => {
    expect(refusal(book(rule('R2', '      kind: scope\n')))).toMatch(
      /rule R2, field check\.allow .*expected a list, it is missing; write e\.g\. \["src\/\*\*"\]/,
    );
  });

  it('refuses an ill-typed parameter', () => {
    expect(refusal(book(rule('R2', '      kind: scope\n      allow: src/**\n')))).toMatch(/rule R2, field check\.allow .*expected a list, got a string/);
  });

  it('refuses an empty list', () => {
    expect(refusal(book(rule('R2', '      kind: scope\n      allow: []\n')))).toMatch(/field check\.allow .*at least 1 item/);
  });

  it('refuses an unknown rule key and an unknown check key, listing the allowed ones', () => {
    const message = refusal(book(`${rule('R2', "      kind: scope\n      allow: ['src/**']\n      deny: ['x']\n")}    severity: high\n`));
    expect(message).toMatch(/rule R2 \(line \d+\): unknown key "severity"; remove it \(allowed: id, name, number, prose, source, enforcement, check\)/);
    expect(message).toMatch(/rule R2, field check \(line \d+\): unknown key "deny"; remove it \(allowed: kind, allow\)/);
  });

  it('refuses an unknown top-level key', () => {
    expect(refusal(`${book(rule('R2', "      kind: scope\n      allow: ['src/**']\n"))}strict: true\n`)).toMatch(/top level \(line 1\): unknown key "strict"/);
  });

  it('refuses a duplicate rule id', () => {
    const scope = "      kind: scope\n      allow: ['src/**']\n";
    expect(refusal(book(rule('R2', scope), rule('R2', scope).replace('name: NR2', 'name: OTHER')))).toMatch(
      /rule R2, field id \(line \d+\): duplicate rule id "R2"/,
    );
  });

  it('refuses a wrong version and a malformed id', () => {
    expect(refusal("version: 2\nrules:\n  - id: r1\n    name: A\n    prose: p\n    check: { kind: scope, allow: ['src/**'] }\n")).toMatch(
      /field version \(line 1\): 2 is not allowed; write one of 1[\s\S]*rule #1, field id|rule r1, field id .*upper-case letters/,
    );
  });

  it('refuses an absolute or backslashed glob', () => {
    expect(refusal(book(rule('R2', "      kind: scope\n      allow: ['/src/**']\n")))).toMatch(/field check\.allow\[0\].*is absolute; write a relative glob/);
    expect(refusal(book(rule('R2', "      kind: scope\n      allow: ['src\\\\**']\n")))).toMatch(/uses a backslash/);
  });

  it('refuses an agent claiming a rule the rulebook does not have', () => {
    const text = `${book(rule('R2', "      kind: scope\n      allow: ['src/**']\n"))}agents:\n  - id: reviewer\n    rules: [R2, R7]\n`;
    expect(refusal(text)).toMatch(/agent reviewer, field rules\[1\] \(line \d+\): unknown rule "R7"; claim rules this rulebook defines \(R2\)/);
  });

  it('refuses an unknown placeholder in a test template', () => {
    const check = "      kind: sibling-test\n      modules: ['src/**/*.ts']\n      tests: ['{dir}/{name}.test.ts']\n";
    expect(refusal(book(rule('R3', check)))).toMatch(/field check\.tests\[0\].*unknown placeholder \{name\}/);
  });

  it('refuses a helper that is not a plain path', () => {
    expect(refusal(book(rule('R5', "      kind: http-helper\n      helper: ../lib/http.ts\n      folders: ['src/**']\n")))).toMatch(
      /field check\.helper.*not a plain relative file path/,
    );
  });

  it('refuses YAML syntax errors with line and column', () => {
    expect(refusal('version: 1\nrules:\n  - id: R1\n   name: [unclosed\n')).toMatch(/^rulebooks\/x\.yaml: line \d+, column \d+: YAML syntax error: /);
  });

  it('refuses duplicate YAML keys', () => {
    expect(refusal('version: 1\nversion: 1\nrules: []\n')).toMatch(/YAML syntax error: Map keys must be unique/);
  });

  it('refuses an empty file', () => {
    expect(refusal('')).toMatch(/top level: the rulebook is empty/);
  });

  it('parseRulebook throws the RulebookError that safeParseRulebook returns', () => {
    expect(() => parseRulebook('version: 3', FILE)).toThrow(RulebookError);
  });

  it('loadRulebook refuses a missing file with exit-2 input error', async () => {
    await expect(loadRulebook('/nonexistent/rules.yaml')).rejects.toMatchObject({ code: 'E_RULEBOOK_READ', message: expect.stringMatching(/no such file/) });
  });

  it('loadRulebook refuses a binary file in one line naming the file, what it is and what to pass', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'holdfast-binary-rulebook-'));
    try {
      // An ELF header and 11 KB of bytes after it, the way a program given as --rulebook by mistake begins.
      const program = join(folder, 'a.out');
      await writeFile(program, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]), Buffer.alloc(11_000, 0x90), Buffer.alloc(64)]));
      const refused = await loadRulebook(program).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(RulebookError);
      expect((refused as RulebookError).code).toBe('E_RULEBOOK_READ');
      expect((refused as RulebookError).message).toBe(
        `${program}: file: not a rulebook (it is not UTF-8 text): a rulebook is a YAML text file; pass yours with --rulebook (holdfast rulebook init drafts one from your AGENTS.md)`,
      );
      const nul = join(folder, 'zeros.bin');
      await writeFile(nul, Buffer.concat([Buffer.from('version: 1\n'), Buffer.alloc(3000)]));
      await expect(loadRulebook(nul)).rejects.toMatchObject({ message: expect.stringContaining('not a rulebook (it holds NUL bytes, as a binary file does)') });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('quotes a long value of the wrong type cut short, not whole', () => {
    const message = refusal(`"${'x'.repeat(5000)}"\n`);
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('expected a mapping, got a string ("xxxx');
  });
});

describe('checkRecordedRulebook', () => {
  it('gives back a recorded rulebook that the loader accepts, unchanged', async () => {
    const rulebook = await loadRulebook();
    expect(checkRecordedRulebook(rulebook, 'runs/a.jsonl')).toEqual(rulebook);
  });

  it('refuses a recorded pattern RE2 refuses, naming the run file, rule and field', async () => {
    const rulebook = await loadRulebook();
    const doctored = {
      ...rulebook,
      rules: rulebook.rules.map((rule) => (rule.check.kind === 'code' ? { ...rule, check: { ...rule.check, fallback: ['(a)\\1'] } } : rule)),
    };
    expect(() => checkRecordedRulebook(doctored, 'runs/a.jsonl')).toThrow(
      /runs\/a\.jsonl \(its recorded rulebook\): rule R4, field check\.fallback\[0\].*backreferences/,
    );
  });
});

describe('renderRulebook', () => {
  it('renders a title, the description and one section per rule, deterministically', () => {
    const rulebook = parseRulebook(readFileSync(defaultRulebookPath(), 'utf8'), 'default.yaml');
    const text = renderRulebook(rulebook);
    expect(text.startsWith('# AGENTS.md\n\nThese rules apply')).toBe(true);
    expect(text.match(/^## R\d \w+$/gm)).toEqual(['## R1 SECRET', '## R2 SCOPE', '## R3 TESTS', '## R4 NOLOG', '## R5 HTTP', '## R6 ORDER']);
    expect(text).toContain('`src/features/orders.test.ts`');
    expect(text).toBe(renderRulebook(structuredClone(rulebook)));
    expect(text).not.toMatch(/check|kind:|held|told/i);
  });
});

describe('numbered and prose rules', () => {
  const prose = (body: string) => `version: 1\nproseRules:\n${body}`;

  it('reads a rulebook of numbered prose rules and renders their numbers', () => {
    const rulebook = parseRulebook(prose('  - { number: 8, id: M8, name: ROOT-CAUSE, prose: Fix the known cause. }\n'), 'm.yaml');
    expect(rulebook.rules).toEqual([]);
    expect(rulebook.proseRules).toEqual([{ number: 8, id: 'M8', name: 'ROOT-CAUSE', prose: 'Fix the known cause.' }]);
    expect(renderRulebook(rulebook)).toContain('## Rule 8: M8 ROOT-CAUSE\n\nFix the known cause.');
  });

  it('refuses a rulebook with no rule at all, and a number used twice', () => {
    expect(() => parseRulebook('version: 1\n', 'm.yaml')).toThrow(/no rules: write at least 1 item under `rules:`/);
    const twice = prose('  - { number: 8, id: M8, name: A, prose: p }\n  - { number: 8, id: M9, name: B, prose: q }\n');
    expect(() => parseRulebook(twice, 'm.yaml')).toThrow(/rule M9, field number \(line \d+\): rule M9 has number 8, which rule M8 already has/);
  });

  it('keeps ids and names unique across checked and prose rules', () => {
    const text = `version: 1\nrules:\n  - id: R1\n    name: SCOPE\n    prose: p\n    check: { kind: scope, allow: ['src/**'] }\nproseRules:\n  - { id: R1, name: SCOPE, prose: q }\n`;
    expect(() => parseRulebook(text, 'm.yaml')).toThrow(/duplicate rule id "R1"[\s\S]*duplicate rule name "SCOPE"/);
  });
});

describe('judge rules', () => {
  const judged = (extra: string) =>
    `version: 1\njudgeRules:\n  - id: J1\n    name: NO_WEAKENED_TEST\n    kind: judge\n    prose: Never weaken a test.\n    rubric:\n      violation: An assertion loosened.\n      notViolation: A test added.\n      examples:\n        - case: toBe(42) became toBeDefined()\n          verdict: violated\n          why: It checks less.\n    target: judge\n${extra}`;

  it('loads a judge rule with its defaults and renders its prose into AGENTS.md like any rule', () => {
    const rulebook = parseRulebook(judged(''), FILE);
    expect(rulebook.rules).toEqual([]);
    expect(rulebook.judgeRules?.[0]).toMatchObject({ id: 'J1', kind: 'judge', target: 'judge', threshold: 0.5, samples: 1 });
    expect(renderRulebook(rulebook)).toBe('# AGENTS.md\n\n## J1 NO_WEAKENED_TEST\n\nNever weaken a test.\n');
  });

  it('refuses an even sample count, a covered rule that has no check, and a missing rubric part', () => {
    expect(refusal(judged('    samples: 2\n'))).toMatch(/rule J1, field samples \(line \d+\): 2 samples can split evenly; use an odd number/);
    expect(refusal(judged('    covers: [R9]\n'))).toMatch(/rule J1, field covers\[0\].*"R9" is not a rule with a check here/);
    expect(refusal(judged('').replace('      notViolation: A test added.\n', ''))).toMatch(/rule J1, field rubric\.notViolation.*what does not count/);
    expect(refusal(judged('    threshold: 2\n'))).toMatch(/rule J1, field threshold.*at most 1/);
  });

  it('refuses `kind: judge` as a check under `rules:`, saying where a judge rule goes', () => {
    expect(refusal(book(rule('R9', '      kind: judge\n')))).toMatch(/rule R9, field check\.kind.*move it under `judgeRules:` with `kind: judge`/);
  });

  it('shares ids with checked rules', () => {
    const text = judged('').replace('judgeRules:', `rules:\n${rule('J1', forbidden(`['console']`))}judgeRules:`);
    expect(refusal(text)).toMatch(/duplicate rule id "J1"/);
  });

  it('loads the shipped judged rulebook: the default six rules word for word and four judge rules, J4 covering R4', async () => {
    const rulebook = await loadRulebook(new URL('../../../../rulebooks/judged.yaml', import.meta.url).pathname);
    expect(rulebook.rules).toEqual((await loadRulebook()).rules);
    expect(rulebook.judgeRules?.map((entry) => entry.id)).toEqual(['J1', 'J2', 'J3', 'J4']);
    expect(rulebook.judgeRules?.[3]?.covers).toEqual(['R4']);
    expect(readFileSync(defaultRulebookPath(), 'utf8')).not.toMatch(/judgeRules/);
  });
});
