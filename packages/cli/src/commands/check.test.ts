import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckReportSchema } from '@holdfast/core/contract';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

// R1 (secrets) is left out so these tests judge the command, not the secret scanner.
const rulebookDir = mkdtempSync(join(tmpdir(), 'holdfast-check-'));
const scopeRulebook = join(rulebookDir, 'scope.yaml');
writeFileSync(scopeRulebook, "version: 1\nrules:\n  - id: R2\n    name: SCOPE\n    prose: Stay in src/.\n    check: { kind: scope, allow: ['src/**'] }\n");

const input = (actions: unknown[], existing: string[] = []) => JSON.stringify({ actions, existing });

describe('holdfast check', () => {
  it('exits 0 and counts the passed checks when nothing failed', async () => {
    const io = memoryIo({ input: input([{ type: 'write', path: 'src/a.ts', content: '' }]) });
    expect(await main(['check', '--rulebook', scopeRulebook], io)).toBe(0);
    expect(io.out()).toBe('0 violations in 1 action; 1 check passed.\n');
  });

  it('exits 1 and prints one line per failed check', async () => {
    const io = memoryIo({
      input: input([
        { type: 'write', path: 'docs/adr/0007.md', content: '' },
        { type: 'delete', path: 'src/b.ts' },
      ]),
    });
    expect(await main(['check', '--rulebook', scopeRulebook, '-'], io)).toBe(1);
    expect(io.out()).toBe('✗ R2 SCOPE: write to "docs/adr/0007.md" is outside the allowed paths (src/**).\n1 violation in 2 actions; 1 check passed.\n');
  });

  it('prints the JSON report with --json', async () => {
    const io = memoryIo({ input: input([{ type: 'write', path: '../x.ts', content: '' }]) });
    expect(await main(['check', '--json', '--rulebook', scopeRulebook], io)).toBe(1);
    const report = CheckReportSchema.parse(JSON.parse(io.out()));
    expect(report).toEqual({ violations: 1, checks: [expect.objectContaining({ rule: 'R2', name: 'SCOPE', actionIndex: 0, ok: false })] });
  });

  it('reads a file relative to the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'holdfast-check-input-'));
    writeFileSync(join(dir, 'in.json'), input([{ type: 'run', cmd: 'npm test' }]));
    const io = memoryIo({ cwd: dir });
    expect(await main(['check', '--rulebook', scopeRulebook, 'in.json'], io)).toBe(0);
  });

  it.each([
    ['not json', /stdin: not JSON/],
    ['[]', /expected a JSON object with an "actions" list/],
    ['{"existing": []}', /"actions" is missing/],
    [
      input([{ type: 'write', path: 'src/a.ts', content: '' }, {}, {}, { type: 'exec', cmd: 'ls' }]),
      /action 3 has unknown type "exec"; use write, delete, run or commit/,
    ],
    [input([{ type: 'write', path: 5, content: '' }]), /action 0, field path: expected a string, got number/],
    [input([{ type: 'commit' }]), /action 0, field message: expected a string, it is missing/],
  ])('refuses bad input %j with exit 2', async (text, message) => {
    const io = memoryIo({ input: text });
    expect(await main(['check', '--rulebook', scopeRulebook], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe('');
  });

  it('refuses an invalid rulebook, a missing file and an unknown flag with exit 2', async () => {
    const broken = join(rulebookDir, 'broken.yaml');
    writeFileSync(broken, 'version: 1\nrules: []\n');
    const cases: [string[], RegExp][] = [
      [['check', '--rulebook', broken], /broken\.yaml: field rules .*at least 1 item/],
      [['check', '--rulebook', scopeRulebook, 'missing.json'], /missing\.json: cannot be read \(ENOENT\)/],
      [['check', '--frobnicate'], /holdfast check: Unknown option '--frobnicate'/],
    ];
    for (const [args, message] of cases) {
      const io = memoryIo({ input: input([]) });
      expect(await main(args, io)).toBe(2);
      expect(io.err()).toMatch(message);
    }
  });

  it('has a real --help', async () => {
    const io = memoryIo();
    expect(await main(['check', '--help'], io)).toBe(0);
    expect(io.out()).toContain('Usage: holdfast check');
  });

  it('judges the shipped example: R2 and R4 fail, the edit of the existing helper passes', async () => {
    const io = memoryIo({ cwd: join(import.meta.dirname, '../../../..') });
    const rulebook = join(rulebookDir, 'no-secrets.yaml');
    const { readFileSync } = await import('node:fs');
    const { parse, stringify } = await import('yaml');
    const full = parse(readFileSync(join(import.meta.dirname, '../../../../rulebooks/default.yaml'), 'utf8')) as { rules: { id: string }[]; agents: unknown };
    writeFileSync(rulebook, stringify({ ...full, rules: full.rules.filter((rule) => rule.id !== 'R1'), agents: [] }));
    expect(await main(['check', '--json', '--rulebook', rulebook, 'examples/check-input.json'], io)).toBe(1);
    const report = CheckReportSchema.parse(JSON.parse(io.out()));
    expect(report.checks.filter((check) => !check.ok).map((check) => `${check.actionIndex} ${check.rule}`)).toEqual(['0 R4', '3 R2']);
  });
});
