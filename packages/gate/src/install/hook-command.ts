import type { GateAgent } from '../decide/index.js';

/** Seconds Claude Code, Codex and Gemini CLI (which counts in milliseconds) give one hook call before they give up on it (and let the call through). */
export const HOOK_TIMEOUT_SECONDS = 30;

/** The hook's own deadline: a decision that is not done by then is a deny, well before the agent's timeout. */
export function deadlineMs(timeoutSeconds: number): number {
  return Math.floor(timeoutSeconds * 1000 * 0.8);
}

export interface HookTarget {
  /** Absolute node binary and hook entry: the hook needs neither PATH nor npx (which costs ~1 s a call). */
  readonly node: string;
  readonly entry: string;
  readonly rulebook: string | undefined;
  /** `--observe` (interfaces.md 2): judge and record every call, never block; the experiment's told arm. */
  readonly observe?: boolean;
}

/** What doctor reads back out of an installed command. */
export interface InstalledHook {
  readonly node: string;
  readonly entry: string;
  readonly agent: GateAgent;
  readonly deadlineMs: number | undefined;
  readonly rulebook: string | undefined;
  readonly observe: boolean;
}

const MARKER = ': holdfast gate v1';

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

function launch(agent: GateAgent, target: HookTarget, extra: readonly string[]): string {
  const args = [
    agent,
    ...extra,
    ...(target.rulebook === undefined ? [] : ['--rulebook', target.rulebook]),
    ...(target.observe === true && agent !== 'git' ? ['--observe'] : []),
  ];
  return (
    `holdfast_node=${doubleQuoted(target.node)}; holdfast_entry=${doubleQuoted(target.entry)};` +
    `if [ -x "$holdfast_node" ] && [ -f "$holdfast_entry" ]; then "$holdfast_node" "$holdfast_entry" ${args.map(doubleQuoted).join(' ')}`
  );
}

/**
 * The command Claude Code (`/bin/sh -c`), Codex (`$SHELL -lc`) and Gemini CLI run for every hook event. It is a
 * POSIX script run by /bin/sh whatever the user's shell, and it fails closed: a node or hook entry
 * that is gone, a hook that cannot start, crashes or exits with anything but 0 or 2 all end in exit 2
 * (a block in both agents) with a message that names what is missing and how to reinstall.
 */
export function agentHookCommand(agent: Exclude<GateAgent, 'git'>, target: HookTarget, timeoutSeconds = HOOK_TIMEOUT_SECONDS): string {
  const script =
    `${MARKER}; ${launch(agent, target, ['--deadline-ms', String(deadlineMs(timeoutSeconds))])}; holdfast_status=$?; ` +
    `if [ "$holdfast_status" = 0 ] || [ "$holdfast_status" = 2 ]; then exit "$holdfast_status"; fi; ` +
    `echo "holdfast gate: the hook stopped with exit status $holdfast_status instead of deciding, so this call is refused. Run \\\`holdfast doctor\\\` in the project to see why." >&2; exit 2; fi; ` +
    // A Stop (AfterAgent) event is let through: blocking it sends the agent back for another turn, and Codex loops
    // on that forever (seen with 0.171.0); every tool call of that turn was refused already.
    `if grep -Eq '${TURN_END_PATTERN[agent] ?? TURN_END_EVENT}'; then echo "holdfast gate: cannot run the hook: $holdfast_node or $holdfast_entry is missing; every tool call is refused until it is back. ${reinstallHint(agent)}" >&2; exit 0; fi; ` +
    `echo "holdfast gate: cannot run the hook: $holdfast_node or $holdfast_entry is missing, so this call is refused. ${reinstallHint(agent)}" >&2; exit 2`;
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
  return command.includes(MARKER) || /holdfast[^\s'"]*['"]?\s+hook\s+(?:claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git)\b/.test(command);
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(["\\$`])/g, '$1');
}

/** Node, entry, agent and deadline of a command (or git hook lines) this version installed; undefined otherwise. */
export function readInstalledHook(command: string): InstalledHook | undefined {
  const script = command.startsWith("/bin/sh -c '") && command.endsWith("'") ? command.slice(12, -1).replace(/'\\''/g, "'") : command;
  const quoted = '"((?:[^"\\\\]|\\\\.)*)"';
  const match = new RegExp(
    `holdfast_node=${quoted}; holdfast_entry=${quoted};.*?"\\$holdfast_entry" "(claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git)"(?: "--deadline-ms" "(\\d+)")?(?: "--rulebook" ${quoted})?`,
  ).exec(script);
  if (match === null) return undefined;
  return {
    node: unescapeDoubleQuoted(match[1] ?? ''),
    entry: unescapeDoubleQuoted(match[2] ?? ''),
    agent: match[3] as GateAgent,
    deadlineMs: match[4] === undefined ? undefined : Number(match[4]),
    rulebook: match[5] === undefined ? undefined : unescapeDoubleQuoted(match[5]),
    observe: /"\$holdfast_entry" [^;]*"--observe"/.test(script),
  };
}
