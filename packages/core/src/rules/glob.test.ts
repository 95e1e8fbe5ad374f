import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compiledGlob, compileGlobs, GLOB_OPTIONS, knowCompiledGlobs } from './glob.js';

describe('compiled globs', () => {
  it("keeps picomatch's regex and base for a glob, and matches with them", () => {
    const glob = 'src/**/*.{ts,tsx}';
    const regex = picomatch.makeRe(glob, GLOB_OPTIONS);
    expect(compiledGlob(glob)).toEqual({ source: regex.source, flags: regex.flags, base: 'src' });
    expect(compiledGlob('README.md').base).toBeNull();
    const matches = compileGlobs([glob]);
    expect(matches('src/a/b.ts')).toBe(true);
    expect(matches('src/a/b.js')).toBe(false);
    // The folder a glob opens is not a file inside it.
    expect(compileGlobs(['lib/**'])('lib')).toBe(false);
  });

  it('matches with globs handed over from a cache, and leaves out entries of the wrong shape', () => {
    // A stand-in regex tells the handed-over entry from a fresh compile.
    knowCompiledGlobs({
      'cached/**': { source: '^only-this$', flags: '', base: 'cached' },
      'broken/**': { source: 7, flags: '', base: null },
      'nobase/**': { source: '^x$', flags: '' },
    });
    const cached = compileGlobs(['cached/**']);
    expect(cached('only-this')).toBe(true);
    expect(cached('cached/a.ts')).toBe(false);
    expect(compileGlobs(['broken/**'])('broken/a.ts')).toBe(true);
    expect(compileGlobs(['nobase/**'])('nobase/a.ts')).toBe(true);
    expect(() => knowCompiledGlobs(null)).not.toThrow();
  });
});
