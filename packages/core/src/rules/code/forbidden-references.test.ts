import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCode } from './code-language.js';
import { compileForbidden, findForbidden } from './forbidden-references.js';

const consoleLog = compileForbidden({ names: ['console.log'], modules: [] });

/** What the tree says, parsed whatever the pre-check says: the answer the pre-check must never hide. */
function onTree(content: string, forbidden = consoleLog): string | undefined {
  const parsed = parseCode('typescript', content);
  if (!parsed.ok) throw new Error(parsed.reason);
  // findForbidden consults the pre-check itself: a check that always may mention stands in for it here.
  return findForbidden(parsed.root.root(), { ...forbidden, mayMentionNames: () => true, mayMentionModules: () => true }, true, content)?.forbidden;
}

describe("a forbidden name's text pre-check", () => {
  it.each([
    ['console.log(1);'],
    ["console['\\x6cog'](1);"],
    ["console['\\154og'](1);"],
    ['console.\\u{6c}og(1);'],
    ['\\u0063onsole.\\u006cog(1);'],
    ["console['l\\\nog'](1);"],
    ["const pattern = /\\d+/;\nconsole['l\\\u2028og'](1);"],
    ["globalThis['\\x63ons\\u{6f}le']['\\154og'](1);"],
    ['const { log } = console;\nlog(1);'],
    ['console /* a */ . /* b */ log(1);'],
    ['const c = console;\nc[`log`](1);'],
  ])('keeps for the tree a file that spells the name, however it is written: %j', (content) => {
    expect(onTree(content)).toBe('console.log');
    expect(consoleLog.mayMentionNames(content)).toBe(true);
  });

  it.each([['logger.log("x");'], ["const pattern = /\\d+\\n/;\nlogger.info('\\x41');"]])('does not parse a file that never spells its root: %j', (content) => {
    expect(onTree(content)).toBeUndefined();
    expect(consoleLog.mayMentionNames(content)).toBe(false);
  });

  it('never says "not mentioned" of a file whose tree holds the name (fragments of escapes, comments, line ends and unicode)', () => {
    const fragments = fc.constantFrom(
      'console',
      'cons',
      'ole',
      'log',
      'l',
      'og',
      '\\x6c',
      '\\154',
      '\\u006c',
      '\\u{6c}',
      '\\u0063',
      '\\\\',
      '\\',
      '\\\n',
      '\\\u2028',
      '\u2029',
      'é',
      '.',
      '?.',
      '[',
      ']',
      "'",
      '`',
      '/*',
      '*/',
      '//',
      '\n',
      'const ',
      ' = ',
      '{ ',
      ' }',
      ';',
      '(1)',
      'globalThis',
      'c',
    );
    fc.assert(
      fc.property(
        fc.array(fragments, { maxLength: 40 }).map((parts) => parts.join('')),
        (content) => {
          if (!consoleLog.mayMentionNames(content)) expect(onTree(content)).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });
});
