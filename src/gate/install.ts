import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { InputError } from '../contract/errors.js';
import type { GateAgent } from './tool-call.js';

/** What install or uninstall did to one file, for the command to print. */
export interface InstallChange {
  readonly file: string;
  readonly change: 'created' | 'updated' | 'unchanged' | 'removed';
  readonly note: string;
}

export interface HookCommandOptions {
  /** The node binary and holdfast's bin script: absolute, so the hook needs no PATH or npx (which costs ~1 s a call). */
  readonly node: string;
  readonly bin: string;
  readonly rulebook: string | undefined;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(agent: GateAgent, options: HookCommandOptions): string {
  const parts = [options.node, options.bin, 'hook', agent];
  if (options.rulebook !== undefined) parts.push('--rulebook', options.rulebook);
  return parts.map(shellQuote).join(' ');
}

/** Our entries are recognised by the command they run, so uninstall never touches anyone else's. */
export function isHoldfastCommand(command: unknown): boolean {
  return typeof command === 'string' && /holdfast[^\s'"]*['"]?\s+hook\s+(?:claude-code|codex|git)\b/.test(command);
}

const MATCHERS: Record<'claude-code' | 'codex', string> = {
  'claude-code': 'Write|Edit|MultiEdit|NotebookEdit|Bash',
  codex: 'Bash|apply_patch',
};

const CONFIG_FILES: Record<'claude-code' | 'codex', string> = {
  'claude-code': join('.claude', 'settings.json'),
  codex: join('.codex', 'hooks.json'),
};

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJsonConfig(path: string): JsonObject | undefined {
  if (!existsSync(path)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError('E_INSTALL_CONFIG', `${path} is not valid JSON; fix it by hand first, holdfast will not overwrite it.`, { cause: error });
  }
  if (!isObject(raw)) throw new InputError('E_INSTALL_CONFIG', `${path} is not a JSON object; fix it by hand first, holdfast will not overwrite it.`);
  return raw;
}

/** Removes our hook entries from `hooks.PreToolUse`, dropping matcher groups and keys left empty. */
function withoutHoldfast(config: JsonObject): JsonObject {
  const hooks = config.hooks;
  if (!isObject(hooks) || !Array.isArray(hooks.PreToolUse)) return config;
  const groups = hooks.PreToolUse.flatMap((group: unknown) => {
    if (!isObject(group) || !Array.isArray(group.hooks)) return [group];
    const kept = group.hooks.filter((hook: unknown) => !(isObject(hook) && isHoldfastCommand(hook.command)));
    if (kept.length === group.hooks.length) return [group];
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
  });
  const nextHooks: JsonObject = { ...hooks, PreToolUse: groups };
  if (groups.length === 0) delete nextHooks.PreToolUse;
  const next: JsonObject = { ...config, hooks: nextHooks };
  if (Object.keys(nextHooks).length === 0) delete next.hooks;
  return next;
}

function withHoldfast(config: JsonObject, agent: 'claude-code' | 'codex', command: string): JsonObject {
  const base = withoutHoldfast(config);
  const hooks = isObject(base.hooks) ? base.hooks : {};
  const groups = Array.isArray(hooks.PreToolUse) ? hooks.PreToolUse : [];
  const entry = { matcher: MATCHERS[agent], hooks: [{ type: 'command', command, timeout: 30 }] };
  return { ...base, hooks: { ...hooks, PreToolUse: [...groups, entry] } };
}

function writeJson(path: string, value: JsonObject): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function shown(root: string, path: string): string {
  const relativePath = relative(root, path);
  return relativePath.startsWith('..') || isAbsolute(relativePath) ? path : relativePath;
}

/** Where git looks for hooks in this repository (honours worktrees and core.hooksPath). */
export function gitHooksDirectory(root: string): string {
  let output: string;
  try {
    output = execFileSync('git', ['rev-parse', '--git-path', 'hooks'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8').trim();
  } catch (error) {
    throw new InputError('E_INSTALL_GIT', `${root} is not a git repository; run \`git init\` first or install from the repository root.`, { cause: error });
  }
  return isAbsolute(output) ? output : join(root, output);
}

const BLOCK_START = '# >>> holdfast gate >>>';
const BLOCK_END = '# <<< holdfast gate <<<';
const BLOCK_PATTERN = new RegExp(`${BLOCK_START}\\n[\\s\\S]*?${BLOCK_END}\\n?`);

function gitBlock(command: string): string {
  return `${BLOCK_START}\n${command} || exit $?\n${BLOCK_END}\n`;
}

function installGitHook(root: string, command: string): InstallChange {
  const path = join(gitHooksDirectory(root), 'pre-commit');
  const block = gitBlock(command);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${block}`);
    chmodSync(path, 0o755);
    return { file: shown(root, path), change: 'created', note: 'pre-commit hook that runs holdfast on the staged changes' };
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
export function installGate(agent: GateAgent, root: string, options: HookCommandOptions): InstallChange {
  const command = hookCommand(agent, options);
  if (agent === 'git') return installGitHook(root, command);
  const path = join(root, CONFIG_FILES[agent]);
  const before = readJsonConfig(path);
  const after = withHoldfast(before ?? {}, agent, command);
  if (before !== undefined && JSON.stringify(before) === JSON.stringify(after)) {
    return { file: shown(root, path), change: 'unchanged', note: 'the holdfast PreToolUse hook is already there' };
  }
  writeJson(path, after);
  const note = `PreToolUse hook on ${MATCHERS[agent]} runs: ${command}`;
  return { file: shown(root, path), change: before === undefined ? 'created' : 'updated', note };
}

/** Removes only holdfast's own entries; everything else in the file stays as it was. */
export function uninstallGate(agent: GateAgent, root: string): InstallChange {
  if (agent === 'git') return uninstallGitHook(root);
  const path = join(root, CONFIG_FILES[agent]);
  const before = readJsonConfig(path);
  if (before === undefined) return { file: shown(root, path), change: 'unchanged', note: 'no such file' };
  const after = withoutHoldfast(before);
  if (JSON.stringify(before) === JSON.stringify(after)) return { file: shown(root, path), change: 'unchanged', note: 'no holdfast hook in it' };
  if (Object.keys(after).length === 0) {
    rmSync(path);
    return { file: shown(root, path), change: 'removed', note: 'the file held only the holdfast hook' };
  }
  writeJson(path, after);
  return { file: shown(root, path), change: 'updated', note: 'holdfast PreToolUse hook removed' };
}
