import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '../../contract/index.js';
import { checkActions } from '../check-actions.js';
import { parseRulebook } from '../parse-rulebook.js';
import { judge, write } from '../test-support/rulebooks.js';

const r4 = async (content: string, path = 'src/features/orders.ts') => (await judge('R4', [write(path, content)]))[0];

describe('R4 NOLOG on the syntax tree', () => {
  it.each([
    ['a plain call', 'console.log(1);'],
    ['optional chaining', 'console?.log(1);'],
    ['an optional call', 'console.log?.(1);'],
    ['a computed key', "console['log'](1);"],
    ['a double-quoted key', 'console["log"](1);'],
    ['a template key', 'console[`log`](1);'],
    ['an escaped key', "console['\\x6cog'](1);"],
    ['an escaped identifier', '\\u0063onsole.log(1);'],
    ['a key spelled with escapes only', "const pattern = /\\d+/;\nglobalThis['\\x63ons\\u{6f}le']['\\154og'](1);"],
    ['a key split by a line continuation', "globalThis['con\\\nsole'].log(1);"],
    ['the global object', 'globalThis.console.log(1);'],
    ['the global object, computed', "globalThis['console']['log'](1);"],
    ['window', 'window.console.log(1);'],
    ['destructuring', 'const { log } = console;\nlog(1);'],
    ['destructuring with a rename', 'const { log: print } = console;\nprint(1);'],
    ['nested destructuring', 'const { console: { log } } = globalThis;\nlog(1);'],
    ['destructuring with a default', 'const { log = () => {} } = console;'],
    ['an alias of console', 'const c = console;\nc.log(1);'],
    ['an alias of an alias', 'const c = console;\nconst d = c;\nd.log(1);'],
    ['an alias of the global object', "const g = globalThis;\ng.console['log'](1);"],
    ['an alias of the method', 'const print = console.log;\nprint(1);'],
    ['a bound method', 'const print = console.log.bind(console);'],
    ['a method passed as a callback', '[1, 2].forEach(console.log);'],
    ['a sequence expression', '(0, console.log)(1);'],
    ['a type assertion', '(console as any).log(1);'],
    ['a non-null assertion', 'console!.log(1);'],
    ['a tagged template', 'console.log`x`;'],
    ['an assignment', 'let c;\nc = console;\nc.log(1);'],
    ['inside a function', 'export function f() {\n  return console.log("x");\n}'],
    ['a member spelled with a code point escape', 'console.\\u{6c}og(1);'],
    ['a key split by a line continuation in its member', "console['l\\\nog'](1);"],
    ['comments between the object and its member', 'console /* a */ . /* b */ log(1);'],
  ])('catches %s', async (_, content) => {
    const judged = await r4(content);
    expect(judged?.ok, judged?.detail).toBe(false);
    expect(judged?.detail).toMatch(/^R4 NOLOG: write to "src\/features\/orders\.ts" adds a console\.log call at line \d+ \(`.+`\)\.$/);
  });

  it('catches a key split by a line continuation at a line separator (U+2028), in a file whose regular expression holds a backslash', async () => {
    const judged = await r4("const pattern = /\\d+/;\nglobalThis['con\\\u2028sole'].log(1);");
    expect(judged?.ok, judged?.detail).toBe(false);
    expect(judged?.detail).toMatch(/^R4 NOLOG: write to "src\/features\/orders\.ts" adds a console\.log call at line 2 /);
  });

  it.each([
    ['a line comment', '// console.log(1)\nexport const a = 1;'],
    ['a block comment', '/* console.log(1) */\nexport const a = 1;'],
    ['a doc comment', '/**\n * Call console.log(x) to debug.\n */\nexport const a = 1;'],
    ['a string', 'export const hint = "use console.log(x)";'],
    ['template text', 'export const hint = `console.log(${1})`;'],
    ['a regex', 'export const pattern = /console\\.log/;'],
    ['a logger', 'logger.log("x");'],
    ['a look-alike object', 'myconsole.log("x");'],
    ['another console member', 'console.error("x");\nconsole.warn("y");'],
    ['a member of something else', 'this.console.log("x");\nfoo.console.log("y");'],
    ['a property named log', 'export const api = { log: 1 };\napi.log;'],
    ['a local console', 'const console = { log: (x: unknown) => x };\nconsole.log(1);'],
    ['a parameter named console', 'export function f(console: { log(x: number): void }) {\n  console.log(1);\n}'],
    ['an imported console', "import { console } from './logger';\nconsole.log(1);"],
    ['a type query', 'type Log = typeof console.log;'],
  ])('lets %s through', async (_, content) => {
    const judged = await r4(content);
    expect(judged?.ok, judged?.detail).toBe(true);
    expect(judged?.detail).toBe('R4 NOLOG: write to "src/features/orders.ts" adds no console.log call.');
  });

  it('judges a markdown page by nothing: it is outside the code globs', async () => {
    expect(await judge('R4', [write('src/README.md', 'Call `console.log(x)` to debug.')])).toEqual([]);
  });

  it.each(['src/x.mts', 'src/x.cts', 'src/x.mjs', 'src/x.cjs', 'src/x.jsx', 'src/x.tsx'])('reads %s', async (path) => {
    expect((await r4('console?.log(1);', path))?.ok).toBe(false);
  });

  it('judges a file that does not parse by the text pattern, and says so', async () => {
    const judged = await r4('export function (((( {\n// console.log(1)\n');
    expect(judged).toMatchObject({ ok: false });
    expect(judged?.detail).toBe(
      'R4 NOLOG: write to "src/features/orders.ts" adds a console.log call at line 2 (`// console.log(1)`) (it does not parse as TypeScript (syntax error at line 1), so the text was checked).',
    );
    const clean = await r4('export function (((( {\nconst consoleLike = 1;\n');
    expect(clean?.ok).toBe(true);
    expect(clean?.detail).toMatch(/adds no console\.log call \(it does not parse as TypeScript \(syntax error at line 1\), so the text was checked\)\.$/);
  });

  it('names the first line that reaches it', async () => {
    const judged = await r4('export const a = 1;\n// console.log(0)\nconst c = console;\nc?.log(2);\n');
    expect(judged?.detail).toBe('R4 NOLOG: write to "src/features/orders.ts" adds a console.log call at line 4 (`c?.log(2);`).');
  });
});

const r5 = async (content: string, path = 'src/features/orders/api.ts') => (await judge('R5', [write(path, content)]))[0];

describe('R5 HTTP on the syntax tree', () => {
  it.each([
    ['a call', "fetch('/api');"],
    ['an optional call', 'fetch?.();'],
    ['a computed global', "globalThis['fetch']('/api');"],
    ['window', "window.fetch('/api');"],
    ['self', "self.fetch('/api');"],
    ['an alias', "const f = fetch;\nf('/api');"],
    ['destructuring the global object', "const { fetch: f } = globalThis;\nf('/api');"],
    ['a shorthand property', 'export const client = { fetch };'],
    ['XMLHttpRequest', 'new XMLHttpRequest();'],
    ['a global axios', "await axios.get('/api');"],
    ['an import of node:https', "import https from 'node:https';"],
    ['an import of http', "import * as http from 'http';"],
    ['a side-effect import', "import 'undici';"],
    ['a named import', "import { request } from 'undici';"],
    ['a type import', "import type { AxiosInstance } from 'axios';"],
    ['a subpath', "import got from 'got/dist/source';"],
    ['a re-export', "export * from 'ky';"],
    ['a require', "const superagent = require('superagent');"],
    ['a require in a template', 'const http = require(`node:http`);'],
    ['a dynamic import', "const { default: fetchIt } = await import('node-fetch');"],
    ['a TypeScript import-require', "import axios = require('axios');"],
  ])('catches %s', async (_, content) => {
    for (const path of ['src/features/orders/api.mjs', 'src/features/orders/api.jsx']) {
      if (!content.includes('import axios =') && !content.includes('import type')) expect((await r5(content, path))?.ok, path).toBe(false);
    }
    const judged = await r5(content);
    expect(judged?.ok, judged?.detail).toBe(false);
    expect(judged?.detail).toMatch(
      /^R5 HTTP: write to "src\/features\/orders\/api\.ts" calls .+ directly at line \d+; import the helper from src\/lib\/http\.ts instead\.$/,
    );
  });

  it.each([
    ['a comment', "// fetch('/api') would be simpler\nexport const a = 1;"],
    ['a string', 'export const doc = "call fetch(\'/api\')";'],
    ['template text', 'export const doc = `fetch(${"/api"})`;'],
    ['a member named fetchUser', "import { get } from '../../lib/http';\nexport const fetchUser = () => get('/user');\nfetchUser();"],
    ['a method named fetch', "api.fetch('/x');\nthis.fetch();"],
    ['a property key', 'export const o = { fetch: 1, axios: 2 };'],
    ['the helper imported as fetch', "import { fetch } from '../../lib/http';\nfetch('/api');"],
    ['a local function named fetch', "function fetch(url: string) {\n  return url;\n}\nfetch('/api');"],
    ['a parameter named fetch', 'export const run = (fetch: (url: string) => void) => fetch("/api");'],
    ['a module that is not HTTP', "import path from 'node:path';\nimport { httpStatus } from './http-status';"],
    ['the helper module', "import { get } from '../../lib/http';"],
    ['a module whose name starts like one', "import x from 'gotcha';\nimport y from 'axios-mock';"],
  ])('lets %s through', async (_, content) => {
    const judged = await r5(content);
    expect(judged?.ok, judged?.detail).toBe(true);
  });

  it('catches the global fetch outside the scope of a local one', async () => {
    const content = "function local() {\n  const fetch = () => 1;\n  return fetch();\n}\nfetch('/api');\n";
    expect((await r5(content))?.detail).toContain('calls fetch directly at line 5');
  });

  it('judges a markdown page in a feature folder as prose', async () => {
    expect(await r5("Call `fetch('/api')` here.", 'src/features/orders/README.md')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('(not a code file)'),
    });
  });

  it('judges a file of a language it does not read by the text patterns, and says so', async () => {
    const judged = await r5("<script>fetch('/api')</script>", 'src/components/List.vue');
    expect(judged?.ok).toBe(false);
    expect(judged?.detail).toContain('holdfast reads no code language from ".vue" files, so the text was checked');
  });
});

const rulebook = (check: string, language = ''): Rulebook =>
  parseRulebook(`version: 1\nrules:\n  - id: R9\n    name: CODE\n    prose: p\n    check:\n      kind: code\n${language}${check}`, 'team.yaml');

describe('a team-written code rule', () => {
  it('runs an ast-grep rule with has/inside/not and constraints', async () => {
    const book = rulebook(
      ['      what: a default export', "      files: ['src/**']", '      rule:', '        kind: export_statement', '        regex: ^export default', ''].join(
        '\n',
      ),
    );
    const results = await checkActions(
      [write('src/a.ts', 'export default function a() {}\n'), write('src/b.ts', '// export default 1\nexport const b = 1;\n')],
      [],
      book,
    );
    expect(results.map((entry) => [entry.ok, entry.detail])).toEqual([
      [false, 'R9 CODE: write to "src/a.ts" adds a default export at line 1 (`export default function a() {}`).'],
      [true, 'R9 CODE: write to "src/b.ts" adds no default export.'],
    ]);
  });

  it('reads metavariables, relational rules and constraints as ast-grep does', async () => {
    const book = rulebook(
      [
        '      what: an await inside a loop',
        "      files: ['src/**']",
        '      rule:',
        '        pattern: await $CALL',
        '        inside:',
        '          any: [{ kind: for_statement }, { kind: for_in_statement }, { kind: while_statement }]',
        '          stopBy: end',
        '        not:',
        '          inside: { kind: arrow_function, stopBy: end }',
        '      constraints:',
        '        CALL: { regex: ^save }',
        '',
      ].join('\n'),
    );
    const results = await checkActions(
      [
        write('src/a.ts', 'export async function a(xs: number[]) {\n  for (const x of xs) await save(x);\n}\n'),
        write(
          'src/b.ts',
          'export async function b(xs: number[]) {\n  for (const x of xs) await load(x);\n  xs.map(async (x) => { for (;;) await save(x); });\n}\n',
        ),
      ],
      [],
      book,
    );
    expect(results.map((entry) => entry.ok)).toEqual([false, true]);
  });

  it('takes the language from the file, and a Python rule reads Python', async () => {
    const book = rulebook(
      ['      what: a print call', "      files: ['**/*.py']", '      rule: { pattern: print($$$ARGS) }', ''].join('\n'),
      '      language: python\n',
    );
    const results = await checkActions([write('app/a.py', '# print(1)\nx = "print(2)"\nprint(3)\n'), write('app/b.py', 'log("print(1)")\n')], [], book);
    expect(results.map((entry) => [entry.ok, entry.detail])).toEqual([
      [false, 'R9 CODE: write to "app/a.py" adds a print call at line 3 (`print(3)`).'],
      [true, 'R9 CODE: write to "app/b.py" adds no print call.'],
    ]);
  });

  it('reads Go and Rust through their language packages', async () => {
    const go = rulebook(
      [
        '      what: a Println',
        "      files: ['**/*.go']",
        '      rule:',
        '        pattern:',
        "          context: 'func f() { fmt.Println($$$A) }'",
        '          selector: call_expression',
        '',
      ].join('\n'),
      '      language: go\n',
    );
    const goResults = await checkActions(
      [write('main.go', 'package main\n\nimport "fmt"\n\nfunc main() {\n\t// fmt.Println(0)\n\tfmt.Println("x")\n}\n')],
      [],
      go,
    );
    expect(goResults[0]).toMatchObject({ ok: false, detail: expect.stringContaining('at line 7') });
    const rust = rulebook(
      ['      what: an unwrap', "      files: ['**/*.rs']", '      rule: { pattern: $X.unwrap() }', ''].join('\n'),
      '      language: rust\n',
    );
    const rustResults = await checkActions([write('src/main.rs', 'fn main() {\n    // x.unwrap()\n    let v = s.parse::<u8>().unwrap();\n}\n')], [], rust);
    expect(rustResults[0]).toMatchObject({ ok: false, detail: expect.stringContaining('at line 3') });
  });

  it('leaves files of another language to other rules', async () => {
    const book = rulebook(
      ['      what: a print call', "      files: ['**']", '      rule: { pattern: print($$$ARGS) }', ''].join('\n'),
      '      language: python\n',
    );
    expect(await checkActions([write('src/a.ts', 'print(1)'), write('README.md', 'print(1)')], [], book)).toEqual([]);
  });

  it('refuses a rule ast-grep cannot compile when the rulebook loads, naming the file and the field', () => {
    expect(() => rulebook(['      what: x', "      files: ['src/**']", '      rule: { kind: no_such_kind }', ''].join('\n'))).toThrow(
      /team\.yaml[\s\S]*rule R9, field check\.rule[\s\S]*ast-grep refuses the rule as TypeScript: .*Kind `no_such_kind` is invalid/,
    );
    expect(() => rulebook(['      what: x', "      files: ['src/**']", '      rule: { patern: x }', ''].join('\n'))).toThrow(
      /field check\.rule.*unknown field `patern`/,
    );
    expect(() => rulebook(['      what: x', "      files: ['src/**']", ''].join('\n'))).toThrow(/a code check needs `rule:`/);
    expect(() =>
      rulebook(['      what: x', "      files: ['src/**']", '      forbid: { names: ["print"] }', ''].join('\n'), '      language: python\n'),
    ).toThrow(/field check\.forbid.*JavaScript and TypeScript only/);
    expect(() => rulebook(['      what: x', "      files: ['src/**']", '      forbid: { names: ["console..log"] }', ''].join('\n'))).toThrow(
      /field check\.forbid\.names\[0\]/,
    );
  });
});

describe('never throws on model output', () => {
  it('judges arbitrary content with a verdict for every written file', async () => {
    const book = { ...(await import('../test-support/rulebooks.js')).onlyRules('R4', 'R5') };
    const fragments = fc.constantFrom(
      'console',
      '.log',
      '?.',
      "['log']",
      'fetch',
      '(',
      ')',
      '{',
      '}',
      'const ',
      ' = ',
      ';',
      '\\u0063',
      '`',
      '${',
      "'",
      '"',
      '/*',
      '//',
      '\n',
      'import ',
      "from 'axios'",
      'require(',
      'globalThis',
      '<div>',
      'x',
    );
    const content = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fragments, { maxLength: 60 }).map((parts) => parts.join('')),
    );
    await fc.assert(
      fc.asyncProperty(
        content,
        fc.constantFrom('src/features/a.ts', 'src/features/a.tsx', 'src/components/b.mjs', 'src/features/c.vue'),
        async (text, path) => {
          const actions: Action[] = [{ type: 'write', path, content: text }];
          const results = await checkActions(actions, [], book);
          expect(results.length).toBeGreaterThanOrEqual(path.endsWith('.vue') ? 1 : 2);
          for (const entry of results) expect(entry.detail).not.toMatch(/cannot be judged/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the worked example of docs/code-checks.md', () => {
  it('judges as the page says', async () => {
    const page = readFileSync(new URL('../../../../../docs/code-checks.md', import.meta.url), 'utf8');
    const yaml = /```yaml\n(rules:\n[\s\S]*?)```/.exec(page)?.[1];
    expect(yaml).toBeDefined();
    const book = parseRulebook(`version: 1\n${yaml ?? ''}`, 'docs/code-checks.md');
    const results = await checkActions(
      [
        write('src/orders.ts', 'export async function store(orders: Order[]) {\n  for (const order of orders) await saveOrder(order);\n}\n'),
        write(
          'src/comments.ts',
          '// for (…) await save(x)\nexport async function f(xs: number[]) {\n  for (const x of xs) await load(x);\n  xs.forEach(async (x) => { while (x) await save(x); });\n}\n',
        ),
      ],
      [],
      book,
    );
    const shown = /`holdfast check`[\s\S]*?```\n(T1 BATCH: .*)\n```/.exec(page)?.[1];
    expect(results.map((entry) => entry.detail)).toEqual([shown, 'T1 BATCH: write to "src/comments.ts" adds no awaited save inside a loop.']);
  });
});
