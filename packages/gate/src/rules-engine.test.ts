import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledGlob } from '@holdfast/core/rules';
import { loadRulebookCached, loadRulesEngine } from './rules-engine.js';

describe('the rulebook cache', () => {
  it("keeps the shipped rulebook with its checks' globs compiled, and reads both back", async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-rules-cache-'));
    const engine = await loadRulesEngine();
    const parsed = await loadRulebookCached(root, undefined, engine);
    const [file] = readdirSync(join(root, '.holdfast', 'cache')).filter((name) => name.startsWith('rulebook-'));
    const record = JSON.parse(readFileSync(join(root, '.holdfast', 'cache', file as string), 'utf8')) as { globs: Record<string, unknown> };
    expect(record.globs['src/**']).toEqual(compiledGlob('src/**'));
    expect(record.globs['src/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']).toEqual(compiledGlob('src/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'));
    expect(await loadRulebookCached(root, undefined, engine)).toEqual(parsed);
  });
});
