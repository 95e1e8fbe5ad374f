import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The packages of ARCHITECTURE.md, as ranks: a package imports only packages below it, by name, never
 * by a relative path. Tests and test support follow the same rule as shipped code (a test that needs
 * a higher package lives in that package), and the bench sits on top of everything.
 */
const RANKS: Record<string, number> = {
  '@holdfast/core': 0,
  '@holdfast/gate': 1,
  '@holdfast/lab': 2,
  '@holdfast/app': 3,
  holdfast: 4,
  '@holdfast/bench': 5,
};

/** What a gate user must not have to install: the lab's and the app's dependencies. */
const NOT_FOR_THE_GATE = ['express', 'react', 'react-dom', '@tanstack/react-virtual', 'bullmq', 'ioredis', 'rolldown', '@holdfast/lab', '@holdfast/app'];

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Workspace {
  readonly folder: string;
  readonly name: string;
  readonly dependencies: Record<string, string>;
}

function readWorkspace(folder: string): Workspace {
  const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
  return { folder, name: manifest.name, dependencies: manifest.dependencies ?? {} };
}

const WORKSPACES: readonly Workspace[] = [...readdirSync(join(ROOT, 'packages')).map((folder) => readWorkspace(`packages/${folder}`)), readWorkspace('bench')];

function codeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : codeFiles(path);
    return /\.(tsx?|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

function filesOf(workspace: Workspace): string[] {
  const base = join(ROOT, workspace.folder);
  return [...codeFiles(join(base, 'src')), ...codeFiles(join(base, 'web', 'src')), ...codeFiles(join(base, 'scripts'))];
}

const isTestFile = (file: string): boolean => /\.test\.tsx?$/.test(file) || file.split(sep).includes('test-support') || /test-support\.ts$/.test(file);

/** Module specifiers a file imports; a string that only looks like an import (a task file in a template) names no module here. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((match) => (match[1] ?? match[2])!);
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function workspaceOf(path: string): Workspace | undefined {
  return WORKSPACES.find((workspace) => `${relative(ROOT, path)}${sep}`.startsWith(`${workspace.folder}${sep}`));
}

describe('the packages', () => {
  it('every workspace package has a rank', () => {
    expect(WORKSPACES.map((workspace) => workspace.name).filter((name) => RANKS[name] === undefined)).toEqual([]);
  });

  it('no relative import leaves its package', () => {
    const leaving: string[] = [];
    for (const workspace of WORKSPACES) {
      for (const file of filesOf(workspace)) {
        for (const specifier of specifiersOf(file).filter((each) => each.startsWith('.'))) {
          const target = resolve(dirname(file), specifier);
          if (workspaceOf(target) !== workspace) leaving.push(`${relative(ROOT, file)} → ${specifier}`);
        }
      }
    }
    expect(leaving).toEqual([]);
  });

  it('no import points up or sideways, tests and test support included', () => {
    const wrong: string[] = [];
    for (const workspace of WORKSPACES) {
      for (const file of filesOf(workspace)) {
        for (const name of specifiersOf(file).map(packageNameOf)) {
          if (RANKS[name] === undefined || name === workspace.name) continue;
          if (RANKS[name] >= RANKS[workspace.name]!) wrong.push(`${relative(ROOT, file)} → ${name}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every package that shipped code imports is a dependency of its own package', () => {
    const undeclared: string[] = [];
    for (const workspace of WORKSPACES) {
      for (const file of filesOf(workspace).filter((each) => !isTestFile(each) && !each.includes(`${sep}scripts${sep}`))) {
        for (const name of specifiersOf(file)
          .filter((each) => !each.startsWith('.') && !each.startsWith('node:'))
          .map(packageNameOf)) {
          if (name === workspace.name || workspace.dependencies[name] !== undefined) continue;
          // vite and its React plugin are loaded only by `serve --dev` / `--build-web` in a clone.
          if (workspace.name === '@holdfast/app' && (name === 'vite' || name === '@vitejs/plugin-react')) continue;
          undeclared.push(`${relative(ROOT, file)} → ${name}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('a gate user installs neither the lab nor the app, nor their dependencies', () => {
    const closure = new Set<string>();
    const visit = (name: string): void => {
      const workspace = WORKSPACES.find((each) => each.name === name);
      for (const dependency of Object.keys(workspace?.dependencies ?? {})) {
        if (closure.has(dependency)) continue;
        closure.add(dependency);
        visit(dependency);
      }
    };
    visit('@holdfast/gate');
    expect([...closure].filter((name) => NOT_FOR_THE_GATE.includes(name))).toEqual([]);
  });

  it('the web app reaches the core and the lab only through their browser entries', () => {
    const web = join(ROOT, 'packages', 'app', 'web', 'src');
    const wrong = codeFiles(web).flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => /^@holdfast\/(core|lab)/.test(specifier) && !/^@holdfast\/(core|lab)\/(browser|test-support)$/.test(specifier))
        .map((specifier) => `${relative(ROOT, file)} → ${specifier}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the plan-mode runner takes its lander injected instead of importing the sandbox', () => {
    const runner = join(ROOT, 'packages', 'lab', 'src', 'experiment', 'runner.ts');
    expect(specifiersOf(runner).filter((specifier) => specifier.includes('sandbox'))).toEqual([]);
  });
});
