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
