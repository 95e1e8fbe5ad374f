import { describe, expect, it } from 'vitest';
import { checkActions } from '../check-actions.js';
import { parseCode } from '../code/code-language.js';
import { parseRulebook } from '../parse-rulebook.js';
import { scanSecrets } from './index.js';
import type { SecretScanOptions } from './index.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

const ALL: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };
const aws = fakeSecrets(31).awsAccessKeyId;
const folded = `const id = ['${aws.slice(0, 4)}', '${aws.slice(4)}'].join('');\nconsole.log(id);\n`;

describe('R1 folding on a tree the check call already has', () => {
  it('asks for the tree once, in the language the code checks name, and finds what it finds on its own parse', async () => {
    const asked: [string, string][] = [];
    const parsed: SecretScanOptions['parsed'] = (language, content) => {
      asked.push([language, content]);
      const tree = parseCode(language, content);
      return tree.ok ? tree.root : undefined;
    };
    const shared = await scanSecrets(folded, 'src/keys.mts', { ...ALL, parsed });
    expect(asked).toEqual([['typescript', folded]]);
    expect(shared).toEqual(await scanSecrets(folded, 'src/keys.mts', ALL));
    expect(shared[0]?.detector).toMatch(/joined from a literal array/);
  });

  it('parses the content itself when no tree is offered', async () => {
    const findings = await scanSecrets(folded, 'src/keys.jsx', { ...ALL, parsed: () => undefined });
    expect(findings[0]?.detector).toMatch(/joined from a literal array/);
  });

  it('judges a file R1 folds and R4 reads the same in one call as rule by rule', async () => {
    const rulebook = parseRulebook(
      `version: 1\nname: shared\nrules:\n  - id: R1\n    name: SECRET\n    prose: no keys\n    check: { kind: secret, detectors: [secretlint-recommend, generic-assignment] }\n  - id: R4\n    name: NOLOG\n    prose: no console.log\n    check: { kind: code, what: a console.log call, files: ['src/**'], forbid: { names: [console.log] } }\n`,
      'shared.yaml',
    );
    const actions = [{ type: 'write' as const, path: 'src/keys.ts', content: folded }];
    const together = await checkActions(actions, [], rulebook);
    const apart = [
      ...(await checkActions(actions, [], { ...rulebook, rules: [rulebook.rules[0]!] })),
      ...(await checkActions(actions, [], { ...rulebook, rules: [rulebook.rules[1]!] })),
    ];
    expect(together).toEqual(apart);
    expect(together.map((result) => [result.rule, result.ok])).toEqual([
      ['R1', false],
      ['R4', false],
    ]);
  });
});
