import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { agentHookCommand, gitHookLines, HOOK_TIMEOUT_SECONDS, isHoldfastCommand } from './hook-command.js';
import type { HookTarget } from './hook-command.js';
import type { GateAgent } from '../decide/index.js';
import { safeParseJson } from '@holdfast/core/contract';
import { combinedChange, installReferenceTransactionHook, uninstallReferenceTransactionHook } from './reference-transaction-hook.js';
import {
  CLAUDE_FILE_TOOLS,
  CLAUDE_READ_ONLY_TOOLS,
  GEMINI_FILE_TOOLS,
  GEMINI_READ_ONLY_TOOLS,
  QWEN_FILE_TOOLS,
  QWEN_READ_ONLY_TOOLS,
  COPILOT_EVENTS,
  everyToolBut,
} from '../hook/index.js';
import { userGitOutput } from '../io/index.js';
import { OPENCODE_PLUGIN_FILE, hasOpenCodePlugin, openCodePluginText, removeOpenCodePlugin, writeOpenCodePlugin } from './opencode-plugin.js';
import { installHookLocation } from './hook-location.js';

/** What install or uninstall did to one file, for the command to print. */
export interface InstallChange {
  readonly file: string;
  readonly change: 'created' | 'updated' | 'unchanged' | 'removed';
  readonly note: string;
}

export type AgentGate = Exclude<GateAgent, 'git'>;

/** The agents whose hooks are commands in a JSON settings file; OpenCode's gate is a plugin file instead (opencode-plugin.ts). */
export type SettingsAgent = Exclude<AgentGate, 'opencode'>;

/**
 * The events each agent's one hook command is registered for, and the tools each matches (`covers`
 * names them for people: a matcher may be a long regex).
 */
export const AGENT_EVENTS: Record<SettingsAgent, readonly { readonly event: string; readonly matcher: string | undefined; readonly covers?: string }[]> = {
  'claude-code': [
    // Every tool but the read-only ones: the file-editing tools are judged from their input, the rest
    // (Bash, an MCP server's tools, a tool a later release adds) get a snapshot to be judged against after.
    { event: 'PreToolUse', matcher: everyToolBut(CLAUDE_READ_ONLY_TOOLS), covers: 'every tool but the read-only ones' },
    { event: 'PostToolUse', matcher: everyToolBut([...CLAUDE_READ_ONLY_TOOLS, ...CLAUDE_FILE_TOOLS]), covers: 'Bash, MCP and other tools' },
    // A call that fails sends PostToolUseFailure instead of PostToolUse (seen with 2.1.197).
    { event: 'PostToolUseFailure', matcher: everyToolBut([...CLAUDE_READ_ONLY_TOOLS, ...CLAUDE_FILE_TOOLS]), covers: 'Bash, MCP and other tools' },
    { event: 'Stop', matcher: undefined },
  ],
  // Codex matches a `|` list of plain names exactly, against the tool's name and its aliases; any other
  // matcher is a regex without look-ahead, so MCP tools get groups of their own.
  codex: [
    { event: 'PreToolUse', matcher: 'Bash|shell|exec_command|apply_patch' },
    { event: 'PreToolUse', matcher: '^mcp__.*', covers: 'MCP tools' },
    { event: 'PostToolUse', matcher: 'Bash|shell|exec_command' },
    { event: 'PostToolUse', matcher: '^mcp__.*', covers: 'MCP tools' },
    { event: 'Stop', matcher: undefined },
  ],
  // Gemini CLI tests a matcher as a JavaScript regex against the tool's name (MCP tools are `mcp_<server>_<tool>`).
  'gemini-cli': [
    { event: 'BeforeTool', matcher: everyToolBut(GEMINI_READ_ONLY_TOOLS), covers: 'every tool but the read-only ones' },
    { event: 'AfterTool', matcher: everyToolBut([...GEMINI_READ_ONLY_TOOLS, ...GEMINI_FILE_TOOLS]), covers: 'run_shell_command, MCP and other tools' },
    { event: 'AfterAgent', matcher: undefined },
  ],
  // Qwen Code: Claude Code's events and matchers (a regex against the tool's name), its own tool names.
  'qwen-code': [
    { event: 'PreToolUse', matcher: everyToolBut(QWEN_READ_ONLY_TOOLS), covers: 'every tool but the read-only ones' },
    { event: 'PostToolUse', matcher: everyToolBut([...QWEN_READ_ONLY_TOOLS, ...QWEN_FILE_TOOLS]), covers: 'run_shell_command, MCP and other tools' },
    { event: 'PostToolUseFailure', matcher: everyToolBut([...QWEN_READ_ONLY_TOOLS, ...QWEN_FILE_TOOLS]), covers: 'run_shell_command, MCP and other tools' },
    { event: 'Stop', matcher: undefined },
  ],
  // Copilot CLI: a file of its own in .github/hooks/, every tool. Its matchers are Rust regexes (no
  // look-ahead, so no "every tool but"), and a read-only tool costs one quick allow.
  'copilot-cli': COPILOT_EVENTS.map((event) => ({ event, matcher: undefined })),
};

/** How many milliseconds one unit of an agent's hook `timeout` is: seconds in Claude Code, Codex, Qwen Code and Copilot CLI (`timeoutSec`), milliseconds in Gemini CLI. */
export const TIMEOUT_UNIT_MS: Record<SettingsAgent, number> = { 'claude-code': 1000, codex: 1000, 'gemini-cli': 1, 'qwen-code': 1000, 'copilot-cli': 1000 };

export const CONFIG_FILES: Record<SettingsAgent, string> = {
  'claude-code': join('.claude', 'settings.json'),
  codex: join('.codex', 'hooks.json'),
  'gemini-cli': join('.gemini', 'settings.json'),
  'qwen-code': join('.qwen', 'settings.json'),
  'copilot-cli': join('.github', 'hooks', 'holdfast.json'),
};

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readJsonConfig(path: string): JsonObject | undefined {
  if (!existsSync(path)) return undefined;
  const json = safeParseJson(readFileSync(path, 'utf8'));
  if (!json.ok)
    throw new InputError('E_INSTALL_CONFIG', `${path} is not valid JSON; fix it by hand first, holdfast will not overwrite it.`, { cause: json.cause });
  const raw = json.value;
  if (!isObject(raw)) throw new InputError('E_INSTALL_CONFIG', `${path} is not a JSON object; fix it by hand first, holdfast will not overwrite it.`);
  return raw;
}

/** Removes our hook entries from every event, dropping matcher groups and keys left empty. */
function withoutHoldfast(config: JsonObject): JsonObject {
  const hooks = config.hooks;
  if (!isObject(hooks)) return config;
  const nextHooks: JsonObject = {};
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) {
      nextHooks[event] = value;
      continue;
    }
    const groups = value.flatMap((group: unknown) => {
      // Copilot CLI's entries are flat: the command is the entry's `bash` (or `command`).
      if (isObject(group) && !Array.isArray(group.hooks)) return isHoldfastCommand(group.bash ?? group.command) ? [] : [group];
      if (!isObject(group) || !Array.isArray(group.hooks)) return [group];
      const kept = group.hooks.filter((hook: unknown) => !(isObject(hook) && isHoldfastCommand(hook.command)));
      if (kept.length === group.hooks.length) return [group];
      return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
    });
    if (groups.length > 0 || value.length === 0) nextHooks[event] = groups;
  }
  const next: JsonObject = { ...config, hooks: nextHooks };
  if (Object.keys(nextHooks).length === 0) delete next.hooks;
  return next;
}

/** Our entries, each appended after the groups already there (Codex keys trust by position). */
function withHoldfast(config: JsonObject, agent: SettingsAgent, command: string): JsonObject {
  const base = withoutHoldfast(config);
  const hooks: JsonObject = isObject(base.hooks) ? { ...base.hooks } : {};
  for (const { event, matcher } of AGENT_EVENTS[agent]) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    if (agent === 'copilot-cli') {
      // Copilot CLI's own format: one flat entry per event, run with `bash`, `timeoutSec` in seconds.
      hooks[event] = [...groups, { type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_SECONDS }];
      continue;
    }
    const handler = { type: 'command', command, timeout: (HOOK_TIMEOUT_SECONDS * 1000) / TIMEOUT_UNIT_MS[agent] };
    hooks[event] = [...groups, matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] }];
  }
  if (agent === 'copilot-cli') return { version: 1, ...base, hooks };
  // Qwen Code writes its settings version into a file that lacks it (or holds an older one) when it starts, which would
  // leave the team's committed file changed after every session; written here, Qwen Code leaves the file as it is.
  if (agent === 'qwen-code' && !(typeof base[QWEN_VERSION_KEY] === 'number' && base[QWEN_VERSION_KEY] >= QWEN_SETTINGS_VERSION))
    return { ...base, hooks, [QWEN_VERSION_KEY]: QWEN_SETTINGS_VERSION };
  return { ...base, hooks };
}

/** Qwen Code 0.24.4's settings version (its SETTINGS_VERSION, under the key `$version`). */
const QWEN_VERSION_KEY = '$version';
const QWEN_SETTINGS_VERSION = 4;

function jsonText(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function writeJson(path: string, value: JsonObject): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jsonText(value));
}

/**
 * The bytes `holdfast install` writes at a project path (an agent's settings file, from the project
 * root with slashes) over what the file held before (undefined: it did not exist), for the hook
 * target given; undefined for a path install writes no committed file at, or a `before` it would
 * refuse to rewrite. What the git hooks compare a staged settings file with (the install commit).
 */
export function installedConfigBytes(path: string, before: Buffer | undefined, target: HookTarget): Buffer | undefined {
  if (path === OPENCODE_PLUGIN_FILE.split(sep).join('/')) return Buffer.from(openCodePluginText(agentHookCommand('opencode', target)), 'utf8');
  const agent = (Object.keys(CONFIG_FILES) as SettingsAgent[]).find((each) => CONFIG_FILES[each].split(sep).join('/') === path);
  if (agent === undefined) return undefined;
  let config: JsonObject = {};
  if (before !== undefined) {
    const json = safeParseJson(before.toString('utf8'));
    if (!json.ok || !isObject(json.value)) return undefined;
    config = json.value;
  }
  return Buffer.from(jsonText(withHoldfast(config, agent, agentHookCommand(agent, target))), 'utf8');
}

function shown(root: string, path: string): string {
  const relativePath = relative(root, path);
  return relativePath.startsWith('..') || isAbsolute(relativePath) ? path : relativePath;
}

function gitPath(root: string, path: string): string {
  const output = userGitOutput(['rev-parse', '--git-path', path], root)?.trim();
  if (output === undefined)
    throw new InputError('E_INSTALL_GIT', `${root} is not a git repository; run \`git init\` first, install from the repository root, or pass --no-git.`);
  return isAbsolute(output) ? output : join(root, output);
}

/** Where git looks for hooks in this repository (honours worktrees and core.hooksPath). */
export function gitHooksDirectory(root: string): string {
  return gitPath(root, 'hooks');
}

export function isGitRepository(root: string): boolean {
  return userGitOutput(['rev-parse', '--git-dir'], root) !== undefined;
}

const BLOCK_START = '# >>> holdfast gate >>>';
const BLOCK_END = '# <<< holdfast gate <<<';
export const BLOCK_PATTERN = new RegExp(`${BLOCK_START}\\n[\\s\\S]*?${BLOCK_END}\\n?`);

function gitBlock(target: HookTarget): string {
  return `${BLOCK_START}\n${gitHookLines(target)}\n${BLOCK_END}\n`;
}

function installGitHook(root: string, target: HookTarget): InstallChange {
  const path = join(gitHooksDirectory(root), 'pre-commit');
  const block = gitBlock(target);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${block}`);
    chmodSync(path, 0o755);
    return { file: shown(root, path), change: 'created', note: 'pre-commit hook that judges the staged changes and refuses the commit if holdfast cannot run' };
  }
  const before = readFileSync(path, 'utf8');
  let after: string;
  if (BLOCK_PATTERN.test(before)) after = before.replace(BLOCK_PATTERN, block);
  else if (before.startsWith('#!')) {
    // Right after the shebang, so an `exec` later in someone else's hook cannot skip the gate.
    const newline = before.indexOf('\n');
    after = newline === -1 ? `${before}\n${block}` : `${before.slice(0, newline + 1)}${block}${before.slice(newline + 1)}`;
  } else after = `#!/bin/sh\n${block}${before}`;
  if (after === before) return { file: shown(root, path), change: 'unchanged', note: 'the holdfast block is already there' };
  writeFileSync(path, after);
  chmodSync(path, 0o755);
  return { file: shown(root, path), change: 'updated', note: 'holdfast block added to the existing pre-commit hook' };
}

function uninstallGitHook(root: string): InstallChange {
  const path = join(gitHooksDirectory(root), 'pre-commit');
  if (!existsSync(path)) return { file: shown(root, path), change: 'unchanged', note: 'no pre-commit hook' };
  const before = readFileSync(path, 'utf8');
  if (!BLOCK_PATTERN.test(before)) return { file: shown(root, path), change: 'unchanged', note: 'no holdfast block in it' };
  const after = before.replace(BLOCK_PATTERN, '');
  if (after.replace(/^#!.*\n?/, '').trim() === '') {
    rmSync(path);
    return { file: shown(root, path), change: 'removed', note: 'the hook held only holdfast' };
  }
  writeFileSync(path, after);
  return { file: shown(root, path), change: 'updated', note: 'holdfast block removed; the rest of the hook is kept' };
}

/** Writes the hook configuration for one agent, merging with what is there. Running it twice changes nothing. */
export function installGate(agent: GateAgent, root: string, target: HookTarget): InstallChange {
  if (agent === 'git') {
    const references = installReferenceTransactionHook(gitHooksDirectory(root), target, (path) => shown(root, path));
    return combinedChange(installGitHook(root, target), references);
  }
  if (agent === 'opencode') return installOpenCode(root, target);
  const path = join(root, CONFIG_FILES[agent]);
  const before = readJsonConfig(path);
  const command = agentHookCommand(agent, target);
  const after = withHoldfast(before ?? {}, agent, command);
  const events = AGENT_EVENTS[agent].map(({ event, matcher }) => (matcher === undefined ? event : `${event} (${matcher})`)).join(', ');
  const location = installHookLocation(root, target);
  const where = `; ${location.file}: ${location.change} (${location.note})`;
  if (before !== undefined && JSON.stringify(before) === JSON.stringify(after)) {
    return location.change === 'unchanged'
      ? { file: shown(root, path), change: 'unchanged', note: `the holdfast hook is already there for ${events}${where}` }
      : { file: shown(root, path), change: 'updated', note: `the holdfast hook was already there for ${events}${where}` };
  }
  writeJson(path, after);
  return { file: shown(root, path), change: before === undefined ? 'created' : 'updated', note: `one holdfast hook command for ${events}${where}` };
}

/** True when the agent's config file holds a holdfast hook. */
export function hasAgentGate(agent: AgentGate, root: string): boolean {
  if (agent === 'opencode') return hasOpenCodePlugin(root);
  const config = readJsonConfig(join(root, CONFIG_FILES[agent]));
  return config !== undefined && JSON.stringify(withoutHoldfast(config)) !== JSON.stringify(config);
}

/** Removes only holdfast's own entries; everything else in the file stays as it was. */
export function uninstallGate(agent: GateAgent, root: string): InstallChange {
  if (agent === 'git')
    return combinedChange(
      uninstallGitHook(root),
      uninstallReferenceTransactionHook(gitHooksDirectory(root), (path) => shown(root, path)),
    );
  if (agent === 'opencode') return uninstallOpenCode(root);
  const path = join(root, CONFIG_FILES[agent]);
  const before = readJsonConfig(path);
  if (before === undefined) return { file: shown(root, path), change: 'unchanged', note: 'no such file' };
  const after = withoutHoldfast(before);
  if (JSON.stringify(before) === JSON.stringify(after)) return { file: shown(root, path), change: 'unchanged', note: 'no holdfast hook in it' };
  // What install adds beside the hooks (Copilot CLI's `version`, Qwen Code's `$version`) does not keep a file install would remove.
  const ownKey = agent === 'copilot-cli' ? 'version' : agent === 'qwen-code' ? QWEN_VERSION_KEY : undefined;
  if (Object.keys(after).every((key) => key === ownKey)) {
    rmSync(path);
    // A `.claude/` or `.codex/` that install made and that holds nothing else goes with it.
    const folder = dirname(path);
    if (readdirSync(folder).length === 0) {
      rmdirSync(folder);
      // Copilot CLI's .github/hooks/: a .github/ that install made and that holds nothing else goes too.
      const parent = dirname(folder);
      if (parent !== root && readdirSync(parent).length === 0) rmdirSync(parent);
      return {
        file: shown(root, path),
        change: 'removed',
        note: `the file held only the holdfast hook; ${shown(root, folder)}/ held nothing else and is removed too`,
      };
    }
    return { file: shown(root, path), change: 'removed', note: 'the file held only the holdfast hook' };
  }
  writeJson(path, after);
  return { file: shown(root, path), change: 'updated', note: 'holdfast hooks removed' };
}

function installOpenCode(root: string, target: HookTarget): InstallChange {
  const change = writeOpenCodePlugin(root, agentHookCommand('opencode', target));
  if (change === 'foreign') {
    throw new InputError(
      'E_INSTALL_CONFIG',
      `${OPENCODE_PLUGIN_FILE} exists and holdfast did not write it; move it aside (or remove it), then run \`holdfast install opencode\` again.`,
    );
  }
  const location = installHookLocation(root, target);
  const where = `; ${location.file}: ${location.change} (${location.note})`;
  const note =
    change === 'unchanged'
      ? `holdfast's plugin is already there for tool.execute.before, tool.execute.after and session.idle${where}`
      : `a plugin that sends tool.execute.before (every tool but the read-only ones), tool.execute.after (bash, MCP and other tools) and session.idle to the holdfast hook${where}`;
  return { file: OPENCODE_PLUGIN_FILE, change: change === 'unchanged' && location.change !== 'unchanged' ? 'updated' : change, note };
}

function uninstallOpenCode(root: string): InstallChange {
  const change = removeOpenCodePlugin(root);
  if (change === 'absent') return { file: OPENCODE_PLUGIN_FILE, change: 'unchanged', note: 'no such file' };
  if (change === 'foreign') return { file: OPENCODE_PLUGIN_FILE, change: 'unchanged', note: 'holdfast did not write this file; it is kept' };
  return { file: OPENCODE_PLUGIN_FILE, change: 'removed', note: "holdfast's plugin removed (and .opencode/plugin/ if it held nothing else)" };
}

const EXCLUDE_LINES = ['# holdfast gate state (added by holdfast install)', '/.holdfast/'];

/**
 * `.holdfast/` (audit log, session state, caches) is kept out of git through `.git/info/exclude`:
 * it is local to this clone like the state itself, and holdfast changes no tracked file (a
 * `.gitignore` edit would itself be a change to review and commit, and a file the gate guards).
 */
function excludePath(root: string): string {
  return gitPath(root, join('info', 'exclude'));
}

export function isHoldfastExcluded(root: string): boolean {
  return userGitOutput(['check-ignore', '-q', '--no-index', '.holdfast/audit.jsonl'], root) !== undefined;
}

export function installExclude(root: string): InstallChange {
  const path = excludePath(root);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (before.split('\n').includes(EXCLUDE_LINES[1] as string)) return { file: shown(root, path), change: 'unchanged', note: '.holdfast/ is already excluded' };
  mkdirSync(dirname(path), { recursive: true });
  const separator = before === '' || before.endsWith('\n') ? '' : '\n';
  writeFileSync(path, `${before}${separator}${EXCLUDE_LINES.join('\n')}\n`);
  return { file: shown(root, path), change: before === '' ? 'created' : 'updated', note: '.holdfast/ (audit log, session state) kept out of git' };
}

const HOLDFAST_STATE_FOLDER = '.holdfast';

/**
 * `.holdfast/` once no gate of holdfast's is left in the project: its audit log, session records and
 * snapshots are this clone's, and uninstall leaves the repository as install found it. The copies
 * outside the project (`~/.local/state/holdfast/`) are kept, so the audit log can still be read.
 */
export function removeProjectState(root: string): InstallChange {
  const path = join(root, HOLDFAST_STATE_FOLDER);
  if (!existsSync(path)) return { file: `${HOLDFAST_STATE_FOLDER}/`, change: 'unchanged', note: 'no such folder' };
  rmSync(path, { recursive: true, force: true });
  return {
    file: `${HOLDFAST_STATE_FOLDER}/`,
    change: 'removed',
    note: "the gate's state in this clone (audit log, session records, snapshots); its sealed copy outside the project, ~/.local/state/holdfast/, is kept",
  };
}

export function uninstallExclude(root: string): InstallChange {
  const path = excludePath(root);
  if (!existsSync(path)) return { file: shown(root, path), change: 'unchanged', note: 'no such file' };
  const before = readFileSync(path, 'utf8');
  const after = before
    .split('\n')
    .filter((line) => !EXCLUDE_LINES.includes(line))
    .join('\n');
  if (after === before) return { file: shown(root, path), change: 'unchanged', note: 'no holdfast line in it' };
  writeFileSync(path, after);
  return { file: shown(root, path), change: 'updated', note: '.holdfast/ line removed' };
}
