import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EXEC_GATE_DIR, EXEC_MARKER, inside, installationOf } from './containment.js';
import type { ConfinementPolicy } from './containment.js';
import { packageClosure } from './holdfast-installation.js';
import { projectRoot } from '../io/index.js';
import { protectedPlaces } from '../decide/index.js';

/** What `holdfast exec` knows when it confines an agent. */
export interface ExecPlanInput {
  /** The project root (the git work tree's top, or the folder exec was started in). */
  readonly project: string;
  readonly cwd: string;
  /** The caller's environment: HOME, CODEX_HOME, CLAUDE_CONFIG_DIR are read from it. */
  readonly env: NodeJS.ProcessEnv;
  /** The agent's program, resolved; its installation stays readable. */
  readonly program: string;
  /** Absolute paths among the agent's arguments (a script it runs). */
  readonly programPaths: readonly string[];
  /** holdfast's own package folder and node: the hook runs from them. */
  readonly holdfastRoot: string;
  readonly node: string;
  /** The host folder holding the gate broker's socket, mounted read-only at EXEC_GATE_DIR. */
  readonly brokerDir: string;
  readonly newSession: boolean;
}

/** Node and hook entry of every holdfast command installed in the project's agent configs and git hooks. */
export function installedHookPaths(configFiles: readonly string[]): string[] {
  const paths: string[] = [];
  for (const file of configFiles) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(/holdfast_(node|entry)=\\?"((?:[^"\\]|\\[^"])+)\\?"/g)) {
      const path = (match[2] as string).replace(/\\(.)/g, '$1');
      if (!path.startsWith('/')) continue;
      // The entry is <package>/dist/hook/hook.cjs: the whole package is what it loads.
      paths.push(match[1] === 'entry' ? resolve(dirname(path), '..', '..') : installationOf(path));
    }
  }
  return paths;
}

/** The rulebooks named by installed hook commands (`--rulebook FILE`, relative to the project). */
export function installedRulebooks(project: string, configFiles: readonly string[]): string[] {
  const files: string[] = [];
  for (const file of configFiles) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(/\\?"--rulebook\\?" \\?"((?:[^"\\]|\\[^"])+)\\?"/g))
      files.push(resolve(project, (match[1] as string).replace(/\\(.)/g, '$1')));
  }
  return files;
}

/**
 * What the hook loads from an installation folder: the gate package and every package it loads
 * (the core, yaml, re2js, ast-grep, …), and the `holdfast` package whose bin the git hooks name.
 * Packages only holdfast's lab or app need stay writable: the hook never loads them.
 */
function installedPackages(root: string): string[] {
  const cli = join(root, 'node_modules', 'holdfast');
  return [...packageClosure(join(root, 'node_modules', '@holdfast', 'gate')), ...(existsSync(cli) ? [realpathSync(cli)] : [])];
}

/**
 * The agent's own state folders (its login, its sessions): writable, since the agent cannot work
 * without them, but the files in them that hold settings and hooks are mounted read-only on top.
 */
function agentState(env: NodeJS.ProcessEnv): { writable: string[]; readOnly: string[] } {
  const home = env.HOME ?? '';
  const claude = env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== '' ? env.CLAUDE_CONFIG_DIR : join(home, '.claude');
  const codex = env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home, '.codex');
  return {
    writable: [claude, join(home, '.claude.json'), codex],
    readOnly: [join(claude, 'settings.json'), join(codex, 'config.toml'), join(codex, 'hooks.json'), join(home, '.gitconfig'), join(home, '.config', 'git')],
  };
}

/**
 * What `holdfast exec` mounts: the system read-only, a private /tmp and HOME, the project writable
 * with every place the gate lives in it mounted read-only over it (the agents' hook settings, git's
 * hooks and config, `.holdfast/`, the rulebook), holdfast's install and the hook entry read-only, and
 * the broker's socket where the hook finds it.
 */
export function execPlan(input: ExecPlanInput): ConfinementPolicy {
  const home = input.env.HOME ?? '';
  // A project under HOME is mounted back over the private HOME, like everything else that must stay.
  const hidden = ['/tmp', ...(home !== '' && home !== '/' && existsSync(home) && input.project !== home ? [home] : [])];
  const project = projectRoot(input.project);
  const configs = [
    join(project.realRoot, '.claude', 'settings.json'),
    join(project.realRoot, '.claude', 'settings.local.json'),
    join(project.realRoot, '.codex', 'hooks.json'),
    join(project.realRoot, '.git', 'hooks', 'pre-commit'),
  ];
  const places = protectedPlaces(project, { rulebookFile: undefined, home: undefined }).map((place) => place.absolute);
  const rulebooks = installedRulebooks(project.realRoot, configs);
  const installs = [
    installationOf(input.program),
    installationOf(input.node),
    input.holdfastRoot,
    ...input.programPaths.map(installationOf),
    ...installedHookPaths(configs),
    // Installed inside the project (`npm install holdfast`), the install is the project itself: its
    // holdfast packages and everything they load are what must not be written.
    ...(inside(input.holdfastRoot, project.realRoot) ? installedPackages(input.holdfastRoot) : []),
  ];
  const state = agentState(input.env);
  const outsideProject = (path: string) => !inside(path, project.realRoot);
  return {
    // The agent talks to its model and needs its key; HOME is hidden whole, so nothing there to mask.
    network: 'shared',
    secretVariables: 'kept',
    masked: [],
    hidden,
    readable: installs.filter(outsideProject),
    writable: [project.realRoot, ...state.writable.filter(outsideProject)],
    readOnlyOver: [...installs.filter((path) => !outsideProject(path) && path !== project.realRoot), ...places, ...rulebooks, ...state.readOnly],
    mounted: [{ from: input.brokerDir, to: EXEC_GATE_DIR, access: 'read' }],
    env: { [EXEC_MARKER]: '1', TMPDIR: '/tmp' },
    cwd: input.cwd,
    newSession: input.newSession,
  };
}
