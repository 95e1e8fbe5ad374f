import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith('.md'),
);

/** Relative links of a Markdown page (`[text](path)` and `[text](path#anchor)`), not web addresses. */
function relativeLinks(page: string): string[] {
  // Code (fenced blocks and inline spans) is not prose: `a[i](x)` there is no link.
  const text = readFileSync(join(ROOT, page), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((link) => !/^[a-z]+:/i.test(link) && !link.startsWith('#'));
}

describe('the front door and the manual', () => {
  it('README.md stays a front door: under 200 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(200);
  });

  it('every relative link of README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/ resolves to a file', () => {
    const broken = PAGES.flatMap((page) =>
      relativeLinks(page)
        .filter((link) => !existsSync(join(ROOT, dirname(page), link.split('#')[0]!)))
        .map((link) => `${page} → ${link}`),
    );
    expect(broken.map((entry) => relative(ROOT, join(ROOT, entry)))).toEqual([]);
  });
});
