import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyPatterns } from '@holdfast/core/rules';
import { keepPatternAnswersOf, savePatternAnswers } from './pattern-answers.js';
import { sealText, unsealText } from './state-seal.js';

describe('pattern answers kept between hook processes', () => {
  it('answers a command matched before from the project cache, and keeps what a process learned', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-answers-'));
    const cache = join(root, '.holdfast', 'cache', 'pattern-answers.json');
    mkdirSync(join(root, '.holdfast', 'cache'), { recursive: true });
    const source = '^\\s*npm\\s+test\\b';
    // An answer RE2 would never give: it can only come from the cache, so the test sees the cache is used.
    writeFileSync(cache, sealText('pattern-answers', JSON.stringify({ format: 2, entries: [[`\0${source}\0npm test --bail`, false]] })));
    keepPatternAnswersOf(root);
    const [pattern] = lazyPatterns([source], '');
    expect(pattern?.test('npm test --bail')).toBe(false);
    expect(pattern?.test('npm test -- --run a.test.ts')).toBe(true);
    expect(pattern?.test('npm install')).toBe(false);
    savePatternAnswers();
    const saved = JSON.parse(unsealText('pattern-answers', readFileSync(cache, 'utf8')) ?? 'null') as { entries: [string, boolean][] };
    expect(saved.entries).toEqual(
      expect.arrayContaining([
        [`\0${source}\0npm test --bail`, false],
        [`\0${source}\0npm test -- --run a.test.ts`, true],
      ]),
    );
    // A long text (file content, not a command) is matched every time and never kept.
    const long = `npm test ${'x'.repeat(600)}`;
    expect(pattern?.test(long)).toBe(true);
    savePatternAnswers();
    expect(readFileSync(cache, 'utf8')).not.toContain('xxxxxxxx');
  });

  it('ignores a cache a command wrote without the seal: its answers are not taken', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-answers-'));
    mkdirSync(join(root, '.holdfast', 'cache'), { recursive: true });
    const source = '^\\s*npm\\s+test\\b';
    writeFileSync(join(root, '.holdfast', 'cache', 'pattern-answers.json'), JSON.stringify({ format: 2, entries: [[`\0${source}\0npm test`, false]] }));
    keepPatternAnswersOf(root);
    const [pattern] = lazyPatterns([source], '');
    expect(pattern?.test('npm test')).toBe(true);
  });

  it('ignores a cache that does not read back', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-answers-'));
    mkdirSync(join(root, '.holdfast', 'cache'), { recursive: true });
    writeFileSync(join(root, '.holdfast', 'cache', 'pattern-answers.json'), '{"format":1,"entries":[["\\u0000x\\u0000npm test", "yes"]]}');
    keepPatternAnswersOf(root);
    const [pattern] = lazyPatterns(['x'], '');
    expect(pattern?.test('npm test')).toBe(false);
  });
});
