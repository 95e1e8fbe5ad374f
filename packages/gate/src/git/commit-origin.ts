import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { childProcess } from '../io/index.js';
import { latestSessionState, openAgentCalls, sessionStateOf } from '../state/index.js';
import type { SessionState } from '../state/index.js';

/** A session whose record judges a commit's order and requires rules. */
interface JudgingSession {
  readonly session: string;
  readonly state: SessionState;
  readonly warning: string | undefined;
}

/**
 * Who made the commit a git hook is judging. `agent`: an agent's tool call was under way (its open
 * call record), the shell says it is an agent's (Claude Code and Codex mark the shells they start),
 * or the hook runs under `holdfast exec`. Every one of these marks can only make the decision
 * stricter: writing one makes the agent's commits, and a person's, face the session rules. `person`:
 * none of them, so the session rules (order, requires) do not apply and the content rules judge it.
 * An agent that removes the marks (it can reach the call records without `holdfast exec`) still
 * meets the check after its call, which judges a commit the call made with the session rules.
 */
export type CommitOrigin =
  | { readonly by: 'agent'; readonly why: string; readonly sessions: readonly JudgingSession[] }
  | { readonly by: 'person'; readonly latest: JudgingSession | undefined };

/**
 * The variables Claude Code and Codex set in the shells they start (the same list `holdfast allow`
 * refuses on), and the one holdfast's agent mode sets for every harness it runs (HOLDFAST_AGENT).
 */
const AGENT_SHELL_VARIABLES = ['CLAUDECODE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'HOLDFAST_AGENT'] as const;

export function commitOrigin(root: string, env: NodeJS.ProcessEnv, now: Date, underExec: boolean): CommitOrigin {
  const open = openAgentCalls(root, now);
  const named = open.sessions.map((session) => sessionStateOf(root, session));
  const latest = latestSessionState(root);
  if (open.sessions.length > 0 || open.unverified > 0) {
    const why =
      open.sessions.length > 0
        ? `made during a tool call of the agent session ${open.sessions.join(', ')}`
        : 'made while a tool call of an agent was under way (its record does not say which session)';
    return { by: 'agent', why, sessions: named.length > 0 ? named : latest === undefined ? [] : [latest] };
  }
  const shell = AGENT_SHELL_VARIABLES.find((name) => env[name] !== undefined && env[name] !== '');
  if (shell !== undefined) return { by: 'agent', why: `made in a shell an agent started (${shell} is set)`, sessions: latest === undefined ? [] : [latest] };
  if (underExec) return { by: 'agent', why: 'made under holdfast exec', sessions: latest === undefined ? [] : [latest] };
  return { by: 'person', latest };
}

/**
 * Whether git's command line is `git commit` with `--no-verify` (or `-n`, alone or in a bundle of short
 * options), the last of `--verify`/`--no-verify` winning, as git reads it. Abbreviations are not
 * read (such a commit is judged: the stricter answer).
 */
export function commitSkipsHooks(argv: readonly string[]): boolean {
  let index = 1;
  const globalWithValue = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path']);
  while (index < argv.length && (argv[index] as string).startsWith('-')) index += globalWithValue.has(argv[index] as string) ? 2 : 1;
  if (argv[index] !== 'commit') return false;
  const longWithValue = new Set([
    '--message',
    '--file',
    '--reuse-message',
    '--reedit-message',
    '--fixup',
    '--squash',
    '--author',
    '--date',
    '--cleanup',
    '--template',
    '--trailer',
    '--pathspec-from-file',
  ]);
  let skips = false;
  for (let at = index + 1; at < argv.length; at += 1) {
    const arg = argv[at] as string;
    if (arg === '--') break;
    if (arg === '--no-verify') skips = true;
    else if (arg === '--verify') skips = false;
    else if (arg.startsWith('--')) {
      if (longWithValue.has(arg)) at += 1;
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let position = 1; position < arg.length; position += 1) {
        const option = arg[position] as string;
        if (option === 'n') skips = true;
        else if ('mFcCt'.includes(option)) {
          if (position === arg.length - 1) at += 1;
          break;
        } else if ('uS'.includes(option)) break;
      }
    }
  }
  return skips;
}

function linuxParent(pid: number): number | undefined {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  return Number.isInteger(parent) && parent > 0 ? parent : undefined;
}

function linuxArgv(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
}

function psField(pid: number, field: 'ppid=' | 'args='): string {
  return childProcess()
    .execFileSync('ps', ['-o', field, '-p', String(pid)], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString('utf8')
    .trim();
}

/**
 * The command line of the git process that runs this hook: the nearest ancestor whose program is
 * git (the hook's own shell sits between). Undefined when it cannot be read; the caller then judges.
 */
export function gitCommandLine(startPid: number = process.ppid): string[] | undefined {
  const linux = process.platform === 'linux';
  let pid: number | undefined = startPid;
  for (let depth = 0; depth < 6 && pid !== undefined && pid > 1; depth += 1) {
    try {
      const argv = linux ? linuxArgv(pid) : psField(pid, 'args=').split(/\s+/);
      if (argv.length > 0 && /^git(?:\.exe)?$/.test(basename(argv[0] as string))) return argv;
      pid = linux ? linuxParent(pid) : Number(psField(pid, 'ppid=')) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
