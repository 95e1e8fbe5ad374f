import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSecrets } from './index.js';
import type { SecretScanOptions } from './index.js';
import { decodeLiterals } from './encoded-literals.js';
import { foldConstantStrings } from './fold-strings.js';
import { redactSecrets } from './redact-secrets.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

/*
 * Hostile shapes for folding and decoding: nesting, long chains, huge encoded runs. What is held here
 * is that nothing throws and that the work is bounded by the caps (folds, decoded size), which does
 * not depend on the machine; how the time grows with the input is measured in the secrets bench.
 */

const ALL: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };
const key = fakeSecrets(9).githubClassic;

const literal = fc.oneof(
  fc.constantFrom("'a'", '"b"', '`c`', `'${key.slice(0, 4)}'`, `'${key.slice(4)}'`, '1', 'x', "'\\x41'", '`${y}`'),
  fc.string({ maxLength: 6 }).map((text) => JSON.stringify(text)),
);
const expression: fc.Arbitrary<string> = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    fc.tuple(tie('expression'), tie('expression')).map(([left, right]) => `${left} + ${right}`),
    tie('expression').map((inner) => `(${inner})`),
    fc.array(tie('expression'), { maxLength: 4 }).map((items) => `[${items.join(', ')}].join(${"''"})`),
    tie('expression').map((inner) => `\`\${${inner}}\``),
  ),
})).expression;

const hostile = fc.oneof(
  fc.integer({ min: 1, max: 2000 }).map((depth) => `const k = ${'('.repeat(depth)}'a'${" + 'b')".repeat(depth)};\n`),
  fc.integer({ min: 1, max: 8000 }).map((length) => `const k = ${Array.from({ length }, (_, index) => `'${index % 10}'`).join(' + ')};\n`),
  fc.integer({ min: 1, max: 1500 }).map((depth) => `const k = ${'`${'.repeat(depth)}'a'${'}`'.repeat(depth)};\n`),
  fc.integer({ min: 1, max: 2000 }).map((count) => Array.from({ length: count }, (_, index) => `const a${index} = a${index + 1} + a${index + 1};`).join('\n')),
  fc.integer({ min: 1, max: 200_000 }).map(
    (length) =>
      `const blob = '${Buffer.from('password='.repeat(Math.ceil(length / 9)))
        .toString('base64')
        .slice(0, length)}';\n`,
  ),
  fc.integer({ min: 1, max: 200_000 }).map((length) => `blob: ${'4'.repeat(length)}\n`),
  fc.array(expression, { maxLength: 8 }).map((items) => items.map((item, index) => `const v${index} = ${item};`).join('\n')),
);

describe('folding and decoding on hostile input', () => {
  it('never throws, keeps its caps and reports positions inside the content', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom('src/a.ts', 'src/a.js', 'deploy/a.yaml'), async (content, path) => {
        const folds = foldConstantStrings(content, path);
        expect(folds.length).toBeLessThanOrEqual(2048);
        for (const fold of folds) {
          expect(fold.start).toBeGreaterThanOrEqual(0);
          expect(fold.end).toBeLessThanOrEqual(content.length);
          expect(fold.value.length).toBeLessThanOrEqual(32 * 1024);
        }
        const decoded = decodeLiterals(content);
        expect(decoded.reduce((sum, each) => sum + each.text.length, 0)).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
        const lines = content.split('\n').length;
        for (const finding of await scanSecrets(content, path, ALL)) expect(finding.line).toBeLessThanOrEqual(lines);
        await redactSecrets(content.slice(0, 20_000), 'code');
      }),
      { numRuns: 25 },
    );
  });

  it('folds what it can of random string expressions without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(expression, { minLength: 1, maxLength: 6 }), async (items) => {
        const content = items.map((item, index) => `const v${index} = ${item};`).join('\n');
        for (const fold of foldConstantStrings(content, 'src/a.ts')) expect(content.slice(fold.start, fold.end).length).toBeGreaterThan(0);
        await scanSecrets(content, 'src/a.ts', ALL);
      }),
      { numRuns: 200 },
    );
  });

  it('folds a chain far longer than the nesting cap (it is walked, not recursed), and gives up past its budget', () => {
    const chain = (length: number) => `const k = ${Array.from({ length }, (_, index) => `'${key[index % key.length] ?? ''}'`).join(' + ')};\n`;
    expect(foldConstantStrings(chain(1000), 'src/a.ts')[0]?.value.length).toBe(1000);
    expect(foldConstantStrings(chain(50_000), 'src/a.ts')).toEqual([]);
  });
});
