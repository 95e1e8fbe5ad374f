import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IN_PROCESS_END_TO_END, SECOND_LINE_ONLY } from '../scripts/test-lines.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** End-to-end files that run holdfast in vitest's process yet stay on one line, and why. */
const ONE_LINE_ONLY: Record<string, string> = {
  'test/e2e/agent-mode-clis.test.ts': 'its agent-mode sessions already run holdfast as a process on Node 24 and 20',
  'test/e2e/web-judged.test.ts': 'the web server on the second line is web.test.ts; this one adds a view',
  'test/e2e/web-loop.test.ts': 'the web server on the second line is web.test.ts; this one adds a view',
  'test/e2e/web-no-evidence.test.ts': 'the web server on the second line is web.test.ts; this one adds a view',
  'test/e2e/web-sandbox.test.ts': 'the web server on the second line is web.test.ts; this one adds a view',
};

describe("npm test's second Node line (scripts/test-lines.mjs)", () => {
  it('names only files that exist, each once', () => {
    const all = [...IN_PROCESS_END_TO_END, ...SECOND_LINE_ONLY];
    expect(all.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('runs every end-to-end file that imports holdfast into the test process on both lines, or says why not', () => {
    const importing = readdirSync(join(ROOT, 'test', 'e2e'))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `test/e2e/${name}`)
      .filter((file) => /from 'holdfast'/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(importing.filter((file) => !IN_PROCESS_END_TO_END.includes(file) && ONE_LINE_ONLY[file] === undefined)).toEqual([]);
  });
});
