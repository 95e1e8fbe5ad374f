import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layer diagram of ARCHITECTURE.md, as ranks: a folder may import from its own rank or below,
 * never above. Entries (cli, server, the bundled hook, the bench) sit on top and wire the rest.
 */
const RANKS: Record<string, number> = {
  contract: 0,
  rules: 1,
  reply: 1,
  stats: 1,
  store: 1,
  workers: 1,
  sandbox: 2,
  models: 2,
  agents: 2,
  report: 2,
  judge: 2,
  experiment: 3,
  'agent-arm': 3,
  pressure: 3,
  gate: 3,
  scale: 4,
  onboard: 4,
  cli: 5,
  server: 5,
  hook: 5,
  bench: 5,
};

const SRC = dirname(fileURLToPath(import.meta.url));

/** Shipped code only: tests and their support may reach any layer to set a scene up. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.startsWith('test-support') ? [path] : [];
  });
}

function folderOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Modules a file imports; a string that only looks like an import (a task file in a template) names no module here. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)]
    .map((match) => resolve(dirname(file), match[1]!))
    .filter((target) => [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx')].some((candidate) => existsSync(candidate)));
}

describe('the layers', () => {
  it('every folder under src/ has a rank', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'test-support');
    expect(folders.map((entry) => entry.name).filter((name) => RANKS[name] === undefined)).toEqual([]);
  });

  it('no import points up', () => {
    const upward: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const target of importsOf(file)) {
        const to = folderOf(target);
        if (to === undefined || to === from) continue;
        if ((RANKS[to] ?? Infinity) > (RANKS[from] ?? -Infinity)) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the plan-mode runner takes its lander injected instead of importing the sandbox', () => {
    const runner = importsOf(join(SRC, 'experiment', 'runner.ts')).map((target) => folderOf(target));
    expect(runner).not.toContain('sandbox');
  });
});
