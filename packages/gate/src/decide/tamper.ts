import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { AGENT_SETTINGS_FOLDERS, AGENT_SETTINGS_SUBFOLDERS, AGENT_USER_SETTINGS_FOLDERS, OPENCODE_SETTINGS, resolveOnDisk } from '../io/index.js';
import type { ProjectRoot } from '../io/index.js';

/** One refusal of the gate's own rules (tampering, bypass), worded like a rule result. */
export interface GateFinding {
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
}

/** A place the agent must not change, and why, in the words the model is told. */
export interface ProtectedPlace {
  readonly absolute: string;
  readonly what: string;
}

/**
 * Where the gate itself lives: the agents' hook settings (project and user level), git's hooks and
 * config, holdfast's own state (allowances, session state, audit log), the rulebook and the rule code it
 * names (a custom check's module, program or script). A change to
 * any of these could switch the gate off or rewrite what it enforces, so none is the agent's to make.
 */
export function protectedPlaces(
  project: ProjectRoot,
  options: {
    rulebookFile: string | undefined;
    home: string | undefined;
    /** The files the rulebook names as rule code (ruleCodeFiles: custom modules, programs, scripts), relative to the project root. */
    ruleCode?: readonly string[];
  },
): ProtectedPlace[] {
  const root = project.realRoot;
  const places: ProtectedPlace[] = [
    ...AGENT_SETTINGS_FOLDERS.map(({ folder, agent }) => ({ absolute: join(root, folder), what: `${agent}'s settings and hooks` })),
    ...OPENCODE_SETTINGS.project.map((name) => ({ absolute: join(root, name), what: "OpenCode's settings and plugins" })),
    ...AGENT_SETTINGS_SUBFOLDERS.map(({ folder, agent }) => ({ absolute: join(root, ...folder.split('/')), what: `${agent}'s settings and hooks` })),
    { absolute: join(root, '.git', 'hooks'), what: "git's hooks (the pre-commit gate)" },
    { absolute: join(root, '.git', 'config'), what: "git's configuration (hook settings)" },
    { absolute: join(root, '.holdfast'), what: "holdfast's own state (allowances, session state, audit log)" },
  ];
  for (const gitDir of linkedGitDirs(root)) {
    places.push({ absolute: join(gitDir, 'hooks'), what: "git's hooks (the pre-commit gate)" });
    places.push({ absolute: join(gitDir, 'config'), what: "git's configuration (hook settings)" });
  }
  if (options.home !== undefined && options.home !== '') {
    for (const { folder, agent } of AGENT_USER_SETTINGS_FOLDERS)
      places.push({ absolute: join(options.home, folder), what: `${agent}'s user settings and hooks` });
    places.push({ absolute: join(options.home, OPENCODE_SETTINGS.user), what: "OpenCode's user settings and plugins" });
  }
  if (options.rulebookFile !== undefined) {
    places.push({ absolute: resolveOnDisk(project, resolve(root, options.rulebookFile), false).absolute, what: 'the rulebook the gate enforces' });
  }
  // A custom check's module decides what it allows: weakening it is weakening the rulebook.
  for (const path of options.ruleCode ?? []) {
    places.push({ absolute: resolveOnDisk(project, resolve(root, path), false).absolute, what: `${path}, rule code the rulebook runs as a check` });
  }
  return places;
}

/** In a worktree or submodule `.git` is a file naming the real git directory; its hooks and config count too. */
function linkedGitDirs(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, '.git'), 'utf8');
  } catch {
    return [];
  }
  const match = /^gitdir:\s*(.+)$/m.exec(text);
  if (match === null) return [];
  const gitDir = resolve(root, (match[1] as string).trim());
  const dirs = [gitDir];
  try {
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    if (common !== '') dirs.push(isAbsolute(common) ? common : resolve(gitDir, common));
  } catch {
    // a plain linked git directory has no commondir
  }
  return dirs;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/**
 * GATE TAMPER for every write or delete that lands in, or removes, a protected place. Paths are the
 * resolved ones (see real-path.ts), so a symlink into `.git/hooks` is caught like the direct path.
 */
export function tamperFindings(actions: readonly Action[], project: ProjectRoot, places: readonly ProtectedPlace[]): GateFinding[] {
  const fold = (path: string) => (project.caseInsensitive ? path.toLowerCase() : path);
  const findings: GateFinding[] = [];
  for (const action of actions) {
    if (action.type !== 'write' && action.type !== 'delete') continue;
    const absolute = fold(resolveOnDisk(project, action.path, action.type === 'delete').absolute);
    const hit = places.find((place) => within(absolute, fold(place.absolute)) || within(fold(place.absolute), absolute));
    if (hit === undefined) continue;
    const removes = within(fold(hit.absolute), absolute) && absolute !== fold(hit.absolute);
    const what = `${action.type} to "${action.path}"`;
    findings.push({
      rule: 'GATE',
      name: 'TAMPER',
      detail: `GATE TAMPER: ${what} ${removes ? 'would remove' : 'would change'} ${hit.what}, which is the person's to change, not the agent's; leave it as it is and carry on with the task.`,
    });
  }
  return findings;
}
