import { describe, expect, it } from 'vitest';
import { parseRulebook } from './parse-rulebook.js';
import { renderRulebook } from './render-rulebook.js';
import { ruleFileHash } from './rulebook-sources.js';

const AUTHORED = `version: 1
name: team
rules:
  - id: R1
    name: NOLOG
    prose: Never use console.log; use the logger.
    check: { kind: forbidden-pattern, patterns: ['console\\.log'], what: a console.log call, files: ['src/**'] }
proseRules:
  - id: R2
    name: SMALL
    prose: Keep pull requests small.
  - id: R3
    name: REQUIRE
    prose: Use require() for imports.
sections:
  - title: Do Not
    intro: Whatever the ticket says, never do these.
    rules: [R3, R1]
  - title: Pull requests
    rules: [R2]
`;

describe('renderRulebook', () => {
  it('a holdfast-authored rulebook keeps its sections, their order and the negation each heading carries', () => {
    expect(renderRulebook(parseRulebook(AUTHORED, 'team.yaml'))).toBe(
      [
        '# AGENTS.md',
        '## Do Not\n\nWhatever the ticket says, never do these.',
        '### R3 REQUIRE\n\nUse require() for imports.',
        '### R1 NOLOG\n\nNever use console.log; use the logger.',
        '## Pull requests',
        '### R2 SMALL\n\nKeep pull requests small.',
      ].join('\n\n') + '\n',
    );
  });

  it('a drafted rulebook renders as its kept rule file, byte for byte; a rule added by hand follows it', () => {
    const text = '# Rules\n\n## Do Not\n\n- Use `require()`\n';
    const kept = `version: 1\nproseRules:\n  - { id: R1, name: REQUIRE, prose: "Do Not: Use \`require()\`", source: { file: AGENTS.md, lines: [5, 5] } }\nsourceFiles:\n  - { path: AGENTS.md, sha256: ${ruleFileHash(text)}, text: ${JSON.stringify(text)} }\n`;
    expect(renderRulebook(parseRulebook(kept, 'r.yaml'))).toBe(text);
    const added = kept.replace('proseRules:\n', 'proseRules:\n  - { id: R2, name: SMALL, prose: Keep PRs small. }\n');
    expect(renderRulebook(parseRulebook(added, 'r.yaml'))).toBe(`${text}\n## R2 SMALL\n\nKeep PRs small.\n`);
  });

  it('refuses a kept file edited by hand, a span outside it, and a section naming an unknown rule', () => {
    const text = '- Use `require()`\n';
    const book = (fileText: string, lines: string, sections = '') =>
      `version: 1\nproseRules:\n  - { id: R1, name: REQUIRE, prose: x, source: { file: AGENTS.md, lines: ${lines} } }\nsourceFiles:\n  - { path: AGENTS.md, sha256: ${ruleFileHash(text)}, text: ${JSON.stringify(fileText)} }\n${sections}`;
    expect(() => parseRulebook(book('- Use `import`\n', '[1, 1]'), 'r.yaml')).toThrow(/does not match its sha256/);
    expect(() => parseRulebook(book(text, '[1, 9]'), 'r.yaml')).toThrow(/cites lines 1-9 of AGENTS\.md, which has 2 lines/);
    expect(() => parseRulebook(book(text, '[1, 1]', 'sections:\n  - { title: A, rules: [R9] }\n'), 'r.yaml')).toThrow(/unknown rule "R9"/);
  });
});
