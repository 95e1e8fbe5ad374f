import { describe, expect, it } from 'vitest';
import { parseRulebook } from '@holdfast/core/rules';
import { FRESH_LEDGER, judgeCall } from './loop-judge.js';

const rulebook = parseRulebook(
  [
    'version: 1',
    'rules:',
    '  - { id: D1, name: DEPS, prose: No new dependencies., check: { kind: dependency } }',
    '  - { id: C1, name: COMMANDS, prose: Never npm publish., check: { kind: command, forbid: [{ command: npm publish }] } }',
    '  - { id: P1, name: PROTECTED, prose: Never edit migrations/., check: { kind: paths, deny: ["migrations/**"] } }',
    '',
  ].join('\n'),
  'loop.yaml',
);
const onDisk = new Map([['package.json', '{"dependencies":{"zod":"4.0.0"}}']]);
const judge = (actions: Parameters<typeof judgeCall>[0]['actions']) =>
  judgeCall({ actions, ledger: FRESH_LEDGER, rulebook, baseFiles: new Set(onDisk.keys()), read: (path) => onDisk.get(path) });

describe('the new kinds in loop mode', () => {
  it('compares a manifest with the file in the workspace, and refuses a new dependency only', async () => {
    expect(await judge([{ type: 'write', path: 'package.json', content: '{"scripts":{"x":"y"},"dependencies":{"zod":"4.0.0"}}' }])).toEqual([]);
    const [failure] = await judge([{ type: 'write', path: 'package.json', content: '{"dependencies":{"zod":"4.0.0","left-pad":"1.3.0"}}' }]);
    expect(failure?.detail).toMatch(/D1 DEPS: .*new dependencies left-pad 1\.3\.0/);
  });

  it('refuses a forbidden command and a denied path as a tool error the model can read', async () => {
    expect((await judge([{ type: 'run', cmd: 'npm run build && npm publish' }]))[0]?.detail).toMatch(/C1 COMMANDS: .*`npm publish`/);
    expect((await judge([{ type: 'write', path: 'Migrations/2.sql', content: 'x' }]))[0]?.detail).toMatch(/P1 PROTECTED/);
  });
});
