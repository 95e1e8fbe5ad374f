import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXEC_GATE_DIR, HOOK_ENTRY_VARIABLE, HOOK_NODE_VARIABLE, findProgram, isReadOnlyMount } from '../exec/index.js';
import { HOOK_LOCATION_FILE, PROJECT_HOOK_ENTRY } from './hook-command.js';
import type { HookTarget } from './hook-command.js';
import type { InstallChange } from './install.js';
import { InputError } from '@holdfast/core/contract';

/** Where an installed agent command will find holdfast in a project, as its script looks (hook-command.ts, locate). */
export interface HookInstall {
  /** `environment`: HOLDFAST_HOOK_ENTRY; `clone`: this clone's `.holdfast/hook-location`; `project`: the project's node_modules. */
  readonly source: 'environment' | 'clone' | 'project';
  /** The node it runs, resolved as the script resolves it; undefined when none is found. */
  readonly node: string | undefined;
  readonly entry: string;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function resolvedNode(node: string, env: NodeJS.ProcessEnv): string | undefined {
  return node.startsWith('/') ? (existsSync(node) ? node : undefined) : findProgram(node, env);
}

function underExecMount(): boolean {
  try {
    return isReadOnlyMount(readFileSync('/proc/self/mountinfo', 'utf8'), EXEC_GATE_DIR);
  } catch {
    return false;
  }
}

/** What the installed command would run in `root` under `env` (the hook's own order: environment, clone, project). */
export function findHookInstall(root: string, env: NodeJS.ProcessEnv): HookInstall {
  const fromEnvironment = env[HOOK_ENTRY_VARIABLE];
  // Honoured only under exec (its read-only broker mount), as the installed command does.
  if (fromEnvironment !== undefined && fromEnvironment !== '' && underExecMount()) {
    return { source: 'environment', node: resolvedNode(env[HOOK_NODE_VARIABLE] || 'node', env), entry: fromEnvironment };
  }
  const location = join(root, HOOK_LOCATION_FILE);
  if (existsSync(location)) {
    const [node = '', entry = ''] = readFileSync(location, 'utf8').split('\n');
    return { source: 'clone', node: node === '' ? undefined : resolvedNode(node, env), entry };
  }
  return { source: 'project', node: resolvedNode('node', env), entry: join(root, PROJECT_HOOK_ENTRY) };
}

/**
 * Records in this clone where the installing holdfast lives, when the project has no holdfast of its own
 * (the committed command then finds it there); removes a record left from before when the project's own
 * holdfast is the one installing. Paths holding a newline cannot be recorded (the hook reads two lines).
 */
export function installHookLocation(root: string, target: HookTarget): InstallChange {
  const path = join(root, HOOK_LOCATION_FILE);
  if (sameFile(target.entry, join(root, PROJECT_HOOK_ENTRY))) {
    if (!existsSync(path)) return { file: HOOK_LOCATION_FILE, change: 'unchanged', note: `the hook runs the project's own ${PROJECT_HOOK_ENTRY}` };
    rmSync(path);
    return { file: HOOK_LOCATION_FILE, change: 'removed', note: `the hook runs the project's own ${PROJECT_HOOK_ENTRY}` };
  }
  if (/[\n\r]/.test(target.node + target.entry))
    throw new InputError(
      'E_INSTALL_PATH',
      `holdfast install: node ${target.node} or hook entry ${target.entry} has a line break in its path; install holdfast in a folder without one.`,
    );
  const text = `${target.node}\n${target.entry}\n`;
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (before === text) return { file: HOOK_LOCATION_FILE, change: 'unchanged', note: 'this clone already records where holdfast is' };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return {
    file: HOOK_LOCATION_FILE,
    change: before === undefined ? 'created' : 'updated',
    note: `where this clone's hook finds holdfast (${target.entry}): the project has no ${PROJECT_HOOK_ENTRY}; kept out of git`,
  };
}
