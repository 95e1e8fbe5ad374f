import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledGlob } from '@holdfast/core/rules';
import { loadRulebookCached, loadRulesEngine, shippedRulebookPath } from './rules-engine.js';

describe('the rulebook cache', () => {
  it("keeps the shipped rulebook with its checks' globs compiled, and reads both back", async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-rules-cache-'));
    const engine = await loadRulesEngine();
    const parsed = await loadRulebookCached(root, undefined, engine);
    const [file] = readdirSync(join(root, '.holdfast', 'cache')).filter((name) => name.startsWith('rulebook-'));
    const text = readFileSync(join(root, '.holdfast', 'cache', file as string), 'utf8');
    const record = JSON.parse(text.slice(text.indexOf('\n') + 1)) as { globs: Record<string, unknown> };
    expect(record.globs['src/**']).toEqual(compiledGlob('src/**'));
    expect(record.globs['src/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']).toEqual(compiledGlob('src/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'));
    expect(await loadRulebookCached(root, undefined, engine)).toEqual(parsed);
  });

  it('is keyed by the rulebook content, not its path, size or time: a forged record or a same-size edit is not trusted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-rules-cache-'));
    const engine = await loadRulesEngine();
    const rulebook = join(root, 'rulebook.yaml');
    const text = readFileSync(shippedRulebookPath(), 'utf8');
    writeFileSync(rulebook, text);
    const stamp = statSync(rulebook);
    const first = await loadRulebookCached(root, rulebook, engine);
    expect(first.rules.some((rule) => rule.id === 'R4')).toBe(true);
    // The same size and the time set back: R4's id renamed, which a cache keyed by mtime and size would never see.
    writeFileSync(rulebook, text.replace(/\bR4\b/g, 'Q4'));
    utimesSync(rulebook, stamp.atime, stamp.mtime);
    const edited = await loadRulebookCached(root, rulebook, engine);
    expect(edited.rules.some((rule) => rule.id === 'Q4')).toBe(true);
    // A record a command wrote under the right name, without the seal: parsed again, and written anew.
    const [name] = readdirSync(join(root, '.holdfast', 'cache')).filter((file) => file.startsWith('rulebook-'));
    const cached = join(root, '.holdfast', 'cache', name as string);
    writeFileSync(cached, `${'0'.repeat(64)}\n${JSON.stringify({ format: 4, source: rulebook, rulebook: { ...edited, rules: [] } })}`);
    expect((await loadRulebookCached(root, rulebook, engine)).rules).toEqual(edited.rules);
    expect(readdirSync(join(root, '.holdfast', 'cache')).filter((file) => file.startsWith('rulebook-'))).toEqual([name]);
  });
});
