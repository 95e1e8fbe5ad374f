import { describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '../contract/index.js';
import { parseRulebook } from './parse-rulebook.js';
import { loadRulebook } from './load-rulebook.js';
import { NOT_UTF8_REASON } from './read-text.js';
import { undecodableResults } from './undecodable-files.js';

const write = (path: string): Action => ({ type: 'write', path, content: '\uFFFD' });

describe('undecodableResults', () => {
  it('refuses a file a content rule reaches, once per rule that reads it, naming the file', async () => {
    const rulebook = await loadRulebook();
    const actions = [write('src/x.ts'), write('src/features/y.ts'), write('assets/logo.png'), write('src/logo.png')];
    const undecodable = new Map(actions.map((action) => [(action as { path: string }).path, NOT_UTF8_REASON]));
    const results = undecodableResults(rulebook, actions, undecodable);
    expect(results.map((result) => [result.actionIndex, result.rule])).toEqual([
      [0, 'R4'],
      [1, 'R4'],
      [1, 'R5'],
    ]);
    expect(results[0]?.detail).toBe('R4 NOLOG: src/x.ts is not valid UTF-8 text: a rule cannot read it; write it as UTF-8.');
    expect(results.every((result) => !result.ok)).toBe(true);
  });

  it('leaves files whose bytes decoded, and deletes, alone', async () => {
    const rulebook = await loadRulebook();
    expect(undecodableResults(rulebook, [write('src/x.ts'), { type: 'delete', path: 'src/y.ts' }], new Map([['src/y.ts', NOT_UTF8_REASON]]))).toEqual([]);
  });

  it('follows each kind by its own globs: secret files, pattern excludes, the HTTP helper, dependency manifests', () => {
    const rulebook: Rulebook = parseRulebook(
      [
        'version: 1',
        'rules:',
        '  - { id: S, name: SECRET, prose: p, check: { kind: secret, files: ["config/**"] } }',
        '  - { id: P, name: PATTERN, prose: p, check: { kind: forbidden-pattern, patterns: ["x"], what: an x, files: ["lib/**"], exclude: ["lib/vendor/**"] } }',
        '  - { id: H, name: HTTP, prose: p, check: { kind: http-helper, helper: web/http.ts, folders: ["web/**"] } }',
        '  - { id: D, name: DEPS, prose: p, check: { kind: dependency, manifests: [package.json] } }',
        '  - { id: A, name: ANY, prose: p, check: { kind: secret } }',
      ].join('\n'),
      'test',
    );
    const paths = ['config/key.bin', 'lib/a.js', 'lib/vendor/b.js', 'web/http.ts', 'web/page.ts', 'package.json', 'go.mod', 'img/a.png'];
    const actions = paths.map(write);
    const results = undecodableResults(rulebook, actions, new Map(paths.map((path) => [path, NOT_UTF8_REASON])));
    expect(results.map((result) => `${paths[result.actionIndex] ?? ''} ${result.rule}`)).toEqual([
      'config/key.bin S',
      'lib/a.js P',
      'web/page.ts H',
      'package.json D',
    ]);
  });
});
