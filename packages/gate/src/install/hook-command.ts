import type { GateAgent } from '../decide/index.js';
import { EXEC_GATE_DIR, HOOK_ENTRY_VARIABLE, HOOK_NODE_VARIABLE } from '../exec/index.js';

/** Seconds Claude Code, Codex and Gemini CLI (which counts in milliseconds) give one hook call before they give up on it (and let the call through). */
export const HOOK_TIMEOUT_SECONDS = 30;

/** The hook's own deadline: a decision that is not done by then is a deny, well before the agent's timeout. */
export function deadlineMs(timeoutSeconds: number): number {
  return Math.floor(timeoutSeconds * 1000 * 0.8);
}

export interface HookTarget {
  /**
   * Absolute node binary and hook entry of the holdfast that installs: the git hooks (in `.git/hooks`, never
   * committed) run them by path, with neither PATH nor npx (which costs ~1 s a call). An agent's settings file
   * is committed, so its command names neither (see agentHookCommand); this pair is recorded in the clone's
   * `.holdfast/hook-location` instead when the project has no holdfast of its own.
   */
  readonly node: string;
  readonly entry: string;
  readonly rulebook: string | undefined;
  /** `--observe` (interfaces.md 2): judge and record every call, never block; the experiment's told arm. */
  readonly observe?: boolean;
}

/** What doctor reads back out of an installed command. */
export interface InstalledHook {
  /**
   * Node and entry named by absolute path: always in git hook lines; in an agent command only from a holdfast
   * before the machine-independent command (doctor asks for a reinstall). Undefined for an agent command that
   * finds holdfast from the project (findHookInstall).
   */
  readonly node: string | undefined;
  readonly entry: string | undefined;
  readonly agent: GateAgent;
  readonly deadlineMs: number | undefined;
  readonly rulebook: string | undefined;
  readonly observe: boolean;
}

/** Every version of the marker (v1 named absolute paths); the agent command of this version is v2 (no path of the machine that installed). */
const MARKER_PREFIX = ': holdfast gate v';
const PROJECT_MARKER = `${MARKER_PREFIX}2`;

/** The one place in a project where an installed holdfast's hook entry is looked for (`npm install --save-dev holdfast` puts it there). */
export const PROJECT_HOOK_ENTRY = 'node_modules/@holdfast/gate/dist/hook-bundle/hook.cjs';
/**
 * This clone's record of where the holdfast that ran `holdfast install` lives (node, then entry, one a line),
 * written only when the project has no holdfast of its own. Under `.holdfast/` (kept out of git by
 * `.git/info/exclude`, guarded like the settings: a write by the agent is GATE TAMPER, read-only under exec).
 */
export const HOOK_LOCATION_FILE = '.holdfast/hook-location';

/** A value inside double quotes in a POSIX shell: only `"`, `\`, `$` and a backquote need escaping. */
function doubleQuoted(text: string): string {
  return `"${text.replace(/["\\$`]/g, (character) => `\\${character}`)}"`;
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function reinstallHint(agent: GateAgent): string {
  return `Reinstall the gate from the project root with \\\`npx holdfast install ${agent}\\\`, then run \\\`holdfast doctor\\\`.`;
}

function hookArguments(agent: GateAgent, target: Pick<HookTarget, 'rulebook' | 'observe'>, extra: readonly string[]): string {
  const args = [
    agent,
    ...extra,
    ...(target.rulebook === undefined ? [] : ['--rulebook', target.rulebook]),
    ...(target.observe === true && agent !== 'git' ? ['--observe'] : []),
  ];
  return args.map(doubleQuoted).join(' ');
}

function launch(agent: GateAgent, target: HookTarget, extra: readonly string[]): string {
  return (
    `holdfast_node=${doubleQuoted(target.node)}; holdfast_entry=${doubleQuoted(target.entry)};` +
    `if [ -x "$holdfast_node" ] && [ -f "$holdfast_entry" ]; then "$holdfast_node" "$holdfast_entry" ${hookArguments(agent, target, extra)}`
  );
}

/**
 * Where an agent command finds holdfast, in this order, as a POSIX script: the environment the agent's client
 * was started with (`HOLDFAST_HOOK_ENTRY`, and `HOLDFAST_HOOK_NODE` or node on PATH: what `holdfast exec` sets
 * to its own copy), only where exec's read-only broker mount is in the hook's mount namespace (outside exec a
 * login profile the agent writes, sourced by Codex's `$SHELL -lc`, could set it); else this clone's `.holdfast/hook-location` (read as two lines of data, never run); else the
 * project's own `node_modules/@holdfast/gate` with node on PATH. One fixed place each, never a search up the tree
 * or along PATH for holdfast: a place the agent could plant a holdfast of its own in is not looked at. The project
 * root is the one the client names: CLAUDE_PROJECT_DIR for Claude Code, the hook's working folder for Codex,
 * Gemini CLI and Qwen Code (the folder the adapters judge).
 */
function locate(agent: Exclude<GateAgent, 'git'>): string {
  const root = agent === 'claude-code' ? `\${CLAUDE_PROJECT_DIR:-$PWD}` : '$PWD';
  return (
    `holdfast_root="${root}"; holdfast_node=node; ` +
    `if [ -n "\${${HOOK_ENTRY_VARIABLE}:-}" ] && grep -Eq ' ${EXEC_GATE_DIR} ro(,| )' /proc/self/mountinfo 2>/dev/null; then holdfast_entry="$${HOOK_ENTRY_VARIABLE}"; holdfast_node="\${${HOOK_NODE_VARIABLE}:-node}"; ` +
    `elif [ -f "$holdfast_root/${HOOK_LOCATION_FILE}" ]; then { IFS= read -r holdfast_node; IFS= read -r holdfast_entry; } < "$holdfast_root/${HOOK_LOCATION_FILE}"; ` +
    `else holdfast_entry="$holdfast_root/${PROJECT_HOOK_ENTRY}"; fi; ` +
    `case "$holdfast_node" in /*) ;; *) holdfast_node=$(command -v "$holdfast_node" 2>/dev/null || :);; esac; `
  );
}

function installFix(agent: GateAgent): string {
  return (
    `Install holdfast in the project (\\\`npm install --save-dev holdfast\\\`: the hook runs ${PROJECT_HOOK_ENTRY} with node from PATH), ` +
    `or run \\\`npx holdfast install ${agent}\\\` in the project with a holdfast installed elsewhere (it records where in ${HOOK_LOCATION_FILE}); then run \\\`npx holdfast doctor\\\`.`
  );
}

/**
 * The command Claude Code (`/bin/sh -c`), Codex (`$SHELL -lc`), Gemini CLI and Qwen Code run for every hook
 * event. It names no path of the machine that installed it, so a team commits the settings file and every clone
 * runs it (see locate for where it finds holdfast). It is a POSIX script run by /bin/sh whatever the user's
 * shell, and it fails closed: no holdfast found, a node that is not there, a hook that cannot start, crashes or
 * exits with anything but 0 or 2 all end in exit 2 (a block in every agent) with a message that names what is
 * missing and what to install or run.
 */
export function agentHookCommand(
  agent: Exclude<GateAgent, 'git'>,
  target: Pick<HookTarget, 'rulebook' | 'observe'>,
  timeoutSeconds = HOOK_TIMEOUT_SECONDS,
): string {
  const missing = `holdfast gate: cannot run the hook: no holdfast for this project (hook entry $holdfast_entry, node \${holdfast_node:-not on PATH})`;
  const script =
    `${PROJECT_MARKER}; ${locate(agent)}` +
    `if [ -n "$holdfast_node" ] && [ -x "$holdfast_node" ] && [ -f "$holdfast_entry" ]; then "$holdfast_node" "$holdfast_entry" ${hookArguments(agent, target, ['--deadline-ms', String(deadlineMs(timeoutSeconds))])}; holdfast_status=$?; ` +
    `if [ "$holdfast_status" = 0 ] || [ "$holdfast_status" = 2 ]; then exit "$holdfast_status"; fi; ` +
    `echo "holdfast gate: the hook stopped with exit status $holdfast_status instead of deciding, so this call is refused. Run \\\`holdfast doctor\\\` in the project to see why." >&2; exit 2; fi; ` +
    // A Stop (AfterAgent) event is let through: blocking it sends the agent back for another turn, and Codex loops
    // on that forever (seen with 0.171.0); every tool call of that turn was refused already.
    `if grep -Eq '${TURN_END_PATTERN[agent] ?? TURN_END_EVENT}'; then echo "${missing}; every tool call is refused until it is there. ${installFix(agent)}" >&2; exit 0; fi; ` +
    `echo "${missing}, so this call is refused. ${installFix(agent)}" >&2; exit 2`;
  return `/bin/sh -c ${singleQuoted(script)}`;
}

/** A turn-end event in the payload on stdin: Claude Code's, Codex's and Qwen Code's Stop, Gemini CLI's AfterAgent. */
const TURN_END_EVENT = '"hook_event_name"[[:space:]]*:[[:space:]]*"(Stop|AfterAgent)"';

/**
 * Copilot CLI names no event: its agentStop is the payload with a top-level `stopReason`, after only
 * string and number fields (sessionId, timestamp, cwd, transcriptPath). A tool call's payload reaches
 * `toolArgs`, an object, first, so a `stopReason` the model puts in a tool's arguments never matches.
 */
const TURN_END_PATTERN: Partial<Record<GateAgent, string>> = {
  'copilot-cli': '^\\{("[A-Za-z_]+":("([^"\\\\]|\\\\.)*"|[0-9.]+),)*"stopReason"[[:space:]]*:',
};

/** The lines the git pre-commit hook runs: a missing holdfast refuses the commit, and so does any failure. */
export function gitHookLines(target: HookTarget): string {
  return (
    `${launch('git', target, [])} || exit 1; else ` +
    `echo "holdfast gate: cannot run the pre-commit gate: $holdfast_node or $holdfast_entry is missing, so the commit is refused. ${reinstallHint('git')}" >&2; exit 1; fi`
  );
}

/** Ours, whatever version of holdfast wrote it: uninstall and reinstall never touch anyone else's hooks. */
export function isHoldfastCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  return (
    command.includes(MARKER_PREFIX) || /holdfast[^\s'"]*['"]?\s+hook\s+(?:claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git)\b/.test(command)
  );
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(["\\$`])/g, '$1');
}

/** Agent, deadline, rulebook and mode of a command (or git hook lines) this version installed, with node and entry where it names them; undefined otherwise. */
export function readInstalledHook(command: string): InstalledHook | undefined {
  const script = command.startsWith("/bin/sh -c '") && command.endsWith("'") ? command.slice(12, -1).replace(/'\\''/g, "'") : command;
  const quoted = '"((?:[^"\\\\]|\\\\.)*)"';
  const tail = `"\\$holdfast_entry" "(claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git)"(?: "--deadline-ms" "(\\d+)")?(?: "--rulebook" ${quoted})?`;
  const observe = /"\$holdfast_entry" [^;]*"--observe"/.test(script);
  if (script.includes(PROJECT_MARKER)) {
    const match = new RegExp(tail).exec(script);
    if (match === null || match[1] === 'git') return undefined;
    return {
      node: undefined,
      entry: undefined,
      agent: match[1] as GateAgent,
      deadlineMs: match[2] === undefined ? undefined : Number(match[2]),
      rulebook: match[3] === undefined ? undefined : unescapeDoubleQuoted(match[3]),
      observe,
    };
  }
  const match = new RegExp(`holdfast_node=${quoted}; holdfast_entry=${quoted};.*?${tail}`).exec(script);
  if (match === null) return undefined;
  return {
    node: unescapeDoubleQuoted(match[1] ?? ''),
    entry: unescapeDoubleQuoted(match[2] ?? ''),
    agent: match[3] as GateAgent,
    deadlineMs: match[4] === undefined ? undefined : Number(match[4]),
    rulebook: match[5] === undefined ? undefined : unescapeDoubleQuoted(match[5]),
    observe,
  };
}
