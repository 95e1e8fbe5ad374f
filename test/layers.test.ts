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

/**
 * The gate's rooms, as ranks (packages/gate/README.md): a room imports rooms below it, never one of
 * its own rank or above, so what changes together stays together and a decision never reaches for
 * the agent adapters that call it. Tests beside the code may import any file of their own package.
 */
const GATE_ROOM_RANKS: Record<string, number> = {
  io: 0,
  shell: 1,
  state: 2,
  decide: 3,
  'put-back': 4,
  exec: 5,
  hook: 6,
  git: 6,
  verify: 7,
  install: 7,
  commands: 8,
  entry: 9,
};
const GATE_SOURCE = join(ROOT, 'packages', 'gate', 'src');
const roomOf = (path: string): string => relative(GATE_SOURCE, path).split(sep)[0]!;

describe("the gate's rooms", () => {
  const shipped = codeFiles(GATE_SOURCE).filter((file) => !isTestFile(file));

  it('every source file lives in a room; only the package entry and test support sit at the top', () => {
    const loose = shipped.filter((file) => GATE_ROOM_RANKS[roomOf(file)] === undefined && relative(GATE_SOURCE, file) !== 'index.ts');
    expect(loose.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('no room imports a room of its own rank or above', () => {
    const wrong: string[] = [];
    for (const file of shipped) {
      const room = roomOf(file);
      const rank = GATE_ROOM_RANKS[room];
      if (rank === undefined) continue;
      for (const specifier of specifiersOf(file).filter((each) => each.startsWith('.'))) {
        const target = roomOf(resolve(dirname(file), specifier));
        if (target === room || GATE_ROOM_RANKS[target] === undefined) continue;
        if (GATE_ROOM_RANKS[target] >= rank) wrong.push(`${relative(ROOT, file)} → ${specifier}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a room is entered through its index.ts, except where a lazy import() names the one file it needs', () => {
    const wrong: string[] = [];
    for (const file of shipped) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*'(\.[^']+)'/g)) {
        const target = resolve(dirname(file), match[1]!);
        // commands/ is a table of verbs loaded one by one; its index names them, it does not re-export them.
        if (roomOf(target) === roomOf(file) || GATE_ROOM_RANKS[roomOf(target)] === undefined || roomOf(target) === 'commands') continue;
        if (!target.endsWith(`${sep}index.js`)) wrong.push(`${relative(ROOT, file)} → ${match[1]!}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the package entry exports only what another package imports', () => {
    const entry = readFileSync(join(GATE_SOURCE, 'index.ts'), 'utf8');
    const exported = [...entry.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) => match[1]!.split(',').map((name) => name.trim()));
    const users = WORKSPACES.filter((workspace) => workspace.name !== '@holdfast/gate')
      .flatMap(filesOf)
      .concat(codeFiles(join(ROOT, 'test')))
      .map((file) => readFileSync(file, 'utf8'))
      .filter((text) => text.includes("'@holdfast/gate'"))
      .join('\n');
    expect(exported.filter((name) => !new RegExp(`\\b${name}\\b`).test(users))).toEqual([]);
  });
});

/**
 * The lab's harness room (ARCHITECTURE.md): how each agent harness is found, started, confined
 * and read lives in `harness/` alone. Agent mode, pressure's live half and the rest of the lab enter it
 * through its index.ts; it reaches only down, to the model targets, the sandbox and the gate.
 */
const LAB_SOURCE = join(ROOT, 'packages', 'lab', 'src');
const labRoomOf = (path: string): string => relative(LAB_SOURCE, path).split(sep)[0]!;

/** Relative imports that carry values (a type-only import is erased and orders nothing). */
function valueImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)(\s+type\b)?[^'"`;]*?from\s*'(\.[^']+)'/g)]
    .filter((match) => match[1] === undefined)
    .map((match) => resolve(dirname(file), match[2]!).replace(/\.js$/, '.ts'));
}

describe("the lab's harness room", () => {
  const shipped = codeFiles(LAB_SOURCE).filter((file) => !isTestFile(file));

  it('is entered only through its index.ts', () => {
    const wrong: string[] = [];
    for (const file of shipped.filter((each) => labRoomOf(each) !== 'harness')) {
      for (const specifier of specifiersOf(file).filter((each) => each.startsWith('.'))) {
        const target = resolve(dirname(file), specifier);
        if (labRoomOf(target) === 'harness' && relative(LAB_SOURCE, target) !== join('harness', 'index.js'))
          wrong.push(`${relative(ROOT, file)} → ${specifier}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reaches only down: to the model targets and the sandbox, never to the modes that use it', () => {
    const below = new Set(['harness', 'models', 'sandbox']);
    const wrong = shipped
      .filter((file) => labRoomOf(file) === 'harness')
      .flatMap((file) =>
        specifiersOf(file)
          .filter((specifier) => specifier.startsWith('.') && !below.has(labRoomOf(resolve(dirname(file), specifier))))
          .map((specifier) => `${relative(ROOT, file)} → ${specifier}`),
      );
    expect(wrong).toEqual([]);
  });

  it('no file of the lab imports itself back through another (no value-level import circle)', () => {
    const graph = new Map(shipped.map((file) => [file, valueImportsOf(file).filter((target) => existsSync(target))]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].map((each) => relative(LAB_SOURCE, each)).join(' → '));
        else if (state.get(next) === undefined) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (state.get(file) === undefined) visit(file, [file]);
    expect(circles).toEqual([]);
  });
});

/**
 * What `holdfast run` loads before its first round (a plan-mode run imports the experiment, the store and the report):
 * agent mode, the sandbox, the harnesses and the gate are loaded by import() only where a run uses them, since their
 * modules cost a plan-mode run's start-up a quarter of its CPU.
 */
describe("a plan-mode run's start-up", () => {
  /** Value imports, relative or by package name (a type-only import is erased; an import() is loaded on use). */
  const staticImportsOf = (file: string): string[] =>
    [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)(\s+type\b)?[^'"`;]*?from\s*'([^']+)'/g)]
      .filter((match) => match[1] === undefined)
      .map((match) => match[2]!);

  it('loads neither agent mode, the sandbox, the harnesses nor the gate', () => {
    const entries = ['experiment', 'store', 'report'].map((folder) => join(LAB_SOURCE, folder, 'index.ts'));
    const reached = new Set<string>(entries);
    const wrong: string[] = [];
    const queue = [...entries];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      for (const specifier of staticImportsOf(file)) {
        if (!specifier.startsWith('.')) {
          if (packageNameOf(specifier) === '@holdfast/gate') wrong.push(`${relative(ROOT, file)} → ${specifier}`);
          continue;
        }
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        const room = relative(LAB_SOURCE, target).split(sep);
        if (room[0] === 'sandbox' || room[0] === 'harness' || (room[0] === 'experiment' && room[1] === 'agent'))
          wrong.push(`${relative(ROOT, file)} → ${specifier}`);
        else if (!reached.has(target) && existsSync(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    expect(reached.size).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  });
});
