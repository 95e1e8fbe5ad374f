import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { isAbsolute, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckResult, CustomCheck, Rulebook } from '../../contract/index.js';
import { safeParseJson } from '../../contract/json.js';
import type { ActionView } from '../action-view.js';
import type { CheckHandler, CustomCheckLauncher, Round, RuleLabel } from './check-handler.js';
import { result } from './check-handler.js';

let childProcessModule: typeof import('node:child_process') | undefined;
/**
 * child_process (with the net and stream modules it loads) on the first custom check that runs: the
 * live hook bundles this file, and a hook process whose rulebook has no custom check never pays for it.
 */
function childProcess(): typeof import('node:child_process') {
  childProcessModule ??= createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  return childProcessModule;
}

/** What a custom check receives on stdin (an executable) or as its argument (a module). */
interface CustomCheckInput {
  readonly rule: { readonly id: string; readonly name: string };
  readonly actions: readonly {
    readonly index: number;
    readonly type: string | null;
    readonly path: string | null;
    readonly content: string | null;
    readonly cmd: string | null;
    readonly passed: boolean | null;
  }[];
  readonly existing: readonly string[];
}

const MAX_OUTPUT = 4 * 1024 * 1024;
const MAX_DETAIL = 2000;

interface CustomResult {
  readonly actionIndex: number;
  readonly ok: boolean;
  readonly detail: string;
}

/** The check's answer as a results list, or undefined when it is not one (zod stays out of the hook's decision path). */
function readResults(value: unknown): CustomResult[] | undefined {
  const list: unknown = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null && Object.keys(value).length === 1
      ? (value as Record<string, unknown>)['results']
      : undefined;
  if (!Array.isArray(list)) return undefined;
  const results: CustomResult[] = [];
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    const { actionIndex, ok, detail, ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0 || typeof ok !== 'boolean' || typeof detail !== 'string' || detail === '' || detail.length > MAX_DETAIL) return undefined;
    if (typeof actionIndex !== 'number' || !Number.isInteger(actionIndex) || actionIndex < 0) return undefined;
    results.push({ actionIndex, ok, detail });
  }
  return results;
}

/**
 * The module runner, given to `node -e`: it imports the team's module, calls its `check` (or default)
 * export with the round read from stdin, and prints what it returns. It runs in its own process so a
 * check that loops, allocates without end or crashes is killed and refused, never the caller.
 */
const MODULE_RUNNER = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', async () => {
  const module = await import(process.argv[1]);
  const check = typeof module.check === 'function' ? module.check : module.default;
  if (typeof check !== 'function') { process.stderr.write('the module exports no check function (export function check(round) { ... })'); process.exit(3); }
  const answer = await check(JSON.parse(input));
  process.stdout.write(JSON.stringify(answer === undefined ? null : answer));
});
`;

/**
 * A team's own deterministic check, run in a child process bounded in time (killed at `timeoutMs`)
 * and memory (`--max-old-space-size` for a module, the data-segment limit for an executable). Its
 * crash, timeout or an answer that is not a results list is a refusal of every action, naming why.
 * The path is relative to the directory holdfast runs in (the project root), or to the launcher's
 * root when the caller gives one (verify: the base's rule code, started inside bubblewrap).
 */
export const customCheck: CheckHandler<CustomCheck> = {
  description: "The team's own check, run as a program or module on the round; a crash or a bad answer is a refusal.",
  timing: 'action',
  reads: 'round',
  prepare(check, rule, context) {
    const launcher = context?.customLauncher;
    const command = commandFor(check, launcher);
    const started = launcher === undefined ? command : { ...command, ...launcher.wrap(command) };
    return (round) => {
      if (round.actions.length === 0) return [];
      const input: CustomCheckInput = { rule: { id: rule.id, name: rule.name }, actions: round.actions.map(viewFor), existing: [...round.existing].sort() };
      // Its own process group, ended whole when the check returns, ends or is killed at its limit: a
      // program it left running in the background (a server, a `sleep &`) goes with it.
      const setsid = setsidProgram();
      const [file, args] =
        setsid === undefined
          ? [started.file, started.args]
          : [setsid, ['/bin/sh', '-c', GROUP_WATCH, 'custom-check', String(process.pid), started.file, ...started.args]];
      const ran = childProcess().spawnSync(file, args, {
        input: JSON.stringify(input),
        encoding: 'utf8',
        timeout: check.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT,
        env: command.env,
        ...(launcher === undefined ? {} : { cwd: launcher.root }),
      });
      if (setsid !== undefined) endGroup(ran.pid);
      return answerOf(ran, check, round, rule, command.shown);
    };
  },
};

let setsidFound: string | null | undefined;
/**
 * util-linux's `setsid`, which makes the check's process the leader of a new session and group in
 * place (a child of this process is no group leader, so it does not fork: the group's id is the pid
 * spawnSync reports). Without it (not Linux), the check runs in this process's group as before.
 */
function setsidProgram(): string | undefined {
  if (setsidFound === undefined) {
    setsidFound = null;
    for (const folder of ['/usr/bin', '/bin', ...(process.env['PATH'] ?? '').split(':')]) {
      if (isAbsolute(folder) && existsSync(resolve(folder, 'setsid'))) {
        setsidFound = resolve(folder, 'setsid');
        break;
      }
    }
  }
  return setsidFound ?? undefined;
}

/**
 * Starts the check in its own process group, with a watcher in that group that ends the group when
 * the process that started it is gone: a hook killed at its deadline (with its own group) leaves
 * none of the check's processes behind either. `$1` is that process, the rest the check's command.
 */
const GROUP_WATCH = 'parent=$1; shift; ( while kill -0 "$parent" 2>/dev/null; do sleep 1; done; kill -KILL 0 ) </dev/null >/dev/null 2>&1 & exec "$@"';

/** Ends a check's process group (its leader's pid); a group already gone is fine. */
function endGroup(pid: number): void {
  if (!(pid > 0)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // every process of the group has ended
  }
}

interface Command {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly shown: string;
}

function commandFor(check: CustomCheck, launcher: CustomCheckLauncher | undefined): Command {
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', LANG: 'C.UTF-8' };
  if (check.module !== undefined) {
    const path = isAbsolute(check.module) ? check.module : resolve(launcher?.root ?? process.cwd(), check.module);
    if (!existsSync(path)) throw new Error(`the custom check module ${check.module} does not exist`);
    const typescript = /\.(ts|mts|cts)$/.test(path);
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    if (typescript && (major < 22 || (major === 22 && minor < 6))) {
      throw new Error(`the custom check module ${check.module} is TypeScript, which Node ${process.versions.node} cannot run; compile it to .js or use exec`);
    }
    const flags = [`--max-old-space-size=${check.memoryMb}`, ...(typescript ? ['--experimental-strip-types', '--no-warnings'] : [])];
    return { file: process.execPath, args: [...flags, '--input-type=module', '-e', MODULE_RUNNER, pathToFileURL(path).href], env, shown: check.module };
  }
  const [program, ...rest] = check.exec ?? [];
  if (program === undefined) throw new Error('the custom check names neither a module nor an executable');
  const kilobytes = check.memoryMb * 1024;
  // ulimit -d bounds the heap (brk and private writable mappings on Linux) of any executable.
  return {
    file: '/bin/sh',
    args: ['-c', `ulimit -d ${kilobytes} 2>/dev/null; exec "$@"`, 'custom-check-limit', program, ...rest],
    env,
    shown: [program, ...rest].join(' '),
  };
}

/** A program or argument that names a file: a relative path with a folder or an extension, never a flag. */
function namesFile(word: string): boolean {
  return !word.startsWith('-') && !isAbsolute(word) && (word.includes('/') || /\.[A-Za-z0-9]+$/.test(word));
}

/**
 * The files a custom check names as its code, relative to the project root with slashes: its module, and
 * of an `exec` check the program and each argument given as a relative path (`node checks/no-todo.mjs`,
 * `./checks/scan.sh`; the rulebook's parser refuses a module path that is not plain and relative). A
 * program found on PATH or given absolute is the machine's, not the project's.
 * What the live gate guards like the rulebook, and what verify reads from the base.
 */
function customCheckFiles(check: CustomCheck): string[] {
  const words = check.module !== undefined ? [check.module] : (check.exec ?? []).filter(namesFile);
  return [...new Set(words.map((word) => posix.normalize(word.replaceAll('\\', '/'))).filter((path) => path !== '.' && !path.startsWith('../')))];
}

/** Every file a rulebook names as rule code (each `custom` check's module or program and script), without repeats. */
export function ruleCodeFiles(rulebook: Rulebook): string[] {
  return [...new Set(rulebook.rules.flatMap((rule) => (rule.check.kind === 'custom' ? customCheckFiles(rule.check) : [])))];
}

function viewFor(action: ActionView): CustomCheckInput['actions'][number] {
  return {
    index: action.index,
    type: action.type ?? null,
    path: action.path.ok ? action.path.path : null,
    content: action.content ?? null,
    cmd: action.cmd ?? null,
    passed: action.observed === undefined ? null : action.observed.passed,
  };
}

function answerOf(
  ran: ReturnType<typeof import('node:child_process').spawnSync>,
  check: CustomCheck,
  round: Round,
  rule: RuleLabel,
  shown: string,
): CheckResult[] {
  const refuseAll = (why: string) =>
    round.actions.map((action) => result(rule, action.index, false, `action ${action.index} cannot be judged: the custom check ${shown} ${why}.`));
  const stderr = lastWords(ran.stderr);
  if (ran.error !== undefined) {
    const code = (ran.error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') return refuseAll(`was killed after ${check.timeoutMs} ms`);
    if (code === 'ENOBUFS') return refuseAll(`wrote more than ${MAX_OUTPUT} bytes`);
    // EPIPE: the program ended before reading the round; its exit status says how.
    if (ran.status === null && ran.signal === null) return refuseAll(`could not start (${ran.error.message})`);
  }
  if (ran.signal !== null) return refuseAll(`was killed by ${ran.signal}${stderr === '' ? '' : ` (${stderr})`}`);
  if (ran.status !== 0) return refuseAll(`crashed with exit code ${String(ran.status)}${stderr === '' ? '' : ` (${stderr})`}`);
  const parsed = safeParseJson(typeof ran.stdout === 'string' ? ran.stdout : '');
  if (!parsed.ok) return refuseAll(`did not print JSON (${parsed.error})`);
  const results = readResults(parsed.value);
  if (results === undefined) return refuseAll('printed something other than a results list ({"results": [{"actionIndex": 0, "ok": false, "detail": "..."}]})');
  const known = new Set(round.actions.map((action) => action.index));
  const stray = results.find((entry) => !known.has(entry.actionIndex));
  if (stray !== undefined) return refuseAll(`answered for action ${stray.actionIndex}, which the round does not have`);
  return results.map((entry) => result(rule, entry.actionIndex, entry.ok, entry.detail));
}

/** The line of a crash's standard error that says what happened (the error, not the stack or the Node version). */
function lastWords(stderr: unknown): string {
  if (typeof stderr !== 'string') return '';
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Node\.js v/.test(line) && !line.startsWith('at '));
  const error = lines.find((line) => /^[A-Za-z]*Error\b/.test(line));
  return (error ?? lines[lines.length - 1] ?? '').slice(0, 200);
}
