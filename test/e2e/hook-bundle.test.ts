import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';

// The built hook entry (`npm run build`, which the test command runs first): one bundle, and V8's
// code for it recorded after sample decisions ran (scripts/warm-hook-cache.cjs).
const DECIDE = fileURLToPath(new URL('../../dist/hook/decide.cjs', import.meta.url));

describe('the bundled hook', () => {
  it("has V8's code for the bundle that this node accepts, recorded after decisions ran (more than compiling alone makes)", () => {
    const source = Module.wrap(readFileSync(DECIDE, 'utf8'));
    const cache = readFileSync(`${DECIDE}.v8cache`);
    const script = new Script(source, { filename: DECIDE, cachedData: cache });
    expect(script.cachedDataRejected).toBe(false);
    const compiledOnly = new Script(source, { filename: `${DECIDE}.cold` }).createCachedData();
    expect(cache.length).toBeGreaterThan(compiledOnly.length * 2);
  });

  it('holds the whole decision in one file: the entry loads no chunk of its own for a decision', () => {
    const source = readFileSync(DECIDE, 'utf8');
    const chunks = [...source.matchAll(/require\(["'`]\.\/([^"'`]+)["'`]\)/g)].map((match) => match[1]);
    expect(chunks.every((chunk) => /^(load-rulebook|pre-commit)-/.test(chunk ?? '')), chunks.join(', ')).toBe(true);
  });
});
