import { join } from 'node:path';

/**
 * The folders where the agent CLIs the gate speaks to keep their settings and hooks, in a project and
 * in the user's HOME (`.gemini/` serves Gemini CLI, `.qwen/` Qwen Code). The gate lives in
 * them, so none is the agent's to change: the hook refuses writes into them, the after-call check
 * guards them, and `holdfast exec` mounts their settings files read-only.
 */
export const AGENT_SETTINGS_FOLDERS: readonly { readonly folder: string; readonly agent: string }[] = [
  { folder: '.claude', agent: 'Claude Code' },
  { folder: '.codex', agent: 'Codex' },
  { folder: '.gemini', agent: 'Gemini CLI' },
  { folder: '.qwen', agent: 'Qwen Code' },
];

export const AGENT_SETTINGS_NAMES: readonly string[] = AGENT_SETTINGS_FOLDERS.map((entry) => entry.folder);

/**
 * OpenCode keeps its project settings and plugins in `.opencode/` and `opencode.json(c)` at the root,
 * and its user settings in `~/.config/opencode/`. Not guarded between calls like the folders above:
 * OpenCode itself installs its plugin package into `.opencode/node_modules` while the agent works.
 * The hook refuses a tool call's write into them, the after-call check puts back a call's change to them
 * (inOpenCodeSettings), and `holdfast exec` mounts them read-only.
 */
export const OPENCODE_SETTINGS: { readonly project: readonly string[]; readonly user: string } = {
  project: ['.opencode', 'opencode.json', 'opencode.jsonc'],
  user: join('.config', 'opencode'),
};

/** What OpenCode writes into `.opencode/` itself while the agent works (its plugin package install): not the gate's. */
const OPENCODE_OWN_FILES = new Set(['node_modules', 'package.json', 'package-lock.json', 'bun.lock', '.gitignore']);

/**
 * Whether a root-relative path (slashes) is one of OpenCode's project settings or plugins: `opencode.json(c)` at the
 * root, or anything in `.opencode/` but OPENCODE_OWN_FILES. A call's change there (a command's as much as a file
 * tool's) is tampering whatever the rulebook says: holdfast's plugin is there, and a settings file can drop it.
 */
export function inOpenCodeSettings(path: string): boolean {
  if (path === 'opencode.json' || path === 'opencode.jsonc') return true;
  if (!path.startsWith('.opencode/')) return false;
  return !OPENCODE_OWN_FILES.has(path.slice('.opencode/'.length).split('/')[0] ?? '');
}

/**
 * Copilot CLI keeps its project hooks and settings below `.github/`, a folder that also holds what an
 * agent may change (workflows, templates): only these two are the gate's. The hook refuses writes into
 * them, the after-call check puts back what a call changed there (they stay in the snapshots, unlike
 * the folders above), and `holdfast exec` mounts them read-only. Root-relative, with slashes.
 */
export const AGENT_SETTINGS_SUBFOLDERS: readonly { readonly folder: string; readonly agent: string }[] = [
  { folder: '.github/hooks', agent: 'Copilot CLI' },
  { folder: '.github/copilot', agent: 'Copilot CLI' },
];

/** Whether a root-relative path (slashes) is inside one of AGENT_SETTINGS_SUBFOLDERS. */
export function inAgentSettingsSubfolder(path: string): boolean {
  return AGENT_SETTINGS_SUBFOLDERS.some(({ folder }) => path === folder || path.startsWith(`${folder}/`));
}

/** The agents' folders in the user's HOME: the project ones above, and Copilot CLI's `~/.copilot/` (its hooks, settings and config). */
export const AGENT_USER_SETTINGS_FOLDERS: readonly { readonly folder: string; readonly agent: string }[] = [
  ...AGENT_SETTINGS_FOLDERS,
  { folder: '.copilot', agent: 'Copilot CLI' },
];
