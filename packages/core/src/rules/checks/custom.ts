import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckResult, CustomCheck } from '../../contract/index.js';
import { safeParseJson } from '../../contract/json.js';
import type { ActionView } from '../action-view.js';
import type { CheckHandler, Round, RuleLabel } from './check-handler.js';
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
 * The path is relative to the directory holdfast runs in (the project root).
 */
export const customCheck: CheckHandler<CustomCheck> = {
  description: "The team's own check, run as a program or module on the round; a crash or a bad answer is a refusal.",
  timing: 'action',
  reads: 'round',
  prepare(check, rule) {
    const command = commandFor(check);
    return (round) => {
      if (round.actions.length === 0) return [];
      const input: CustomCheckInput = { rule: { id: rule.id, name: rule.name }, actions: round.actions.map(viewFor), existing: [...round.existing].sort() };
      const ran = childProcess().spawnSync(command.file, command.args, {
        input: JSON.stringify(input),
        encoding: 'utf8',
        timeout: check.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT,
        env: command.env,
      });
      return answerOf(ran, check, round, rule, command.shown);
    };
  },
};

interface Command {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly shown: string;
}

function commandFor(check: CustomCheck): Command {
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', LANG: 'C.UTF-8' };
  if (check.module !== undefined) {
    const path = isAbsolute(check.module) ? check.module : resolve(process.cwd(), check.module);
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
    args: ['-c', `ulimit -d ${kilobytes} 2>/dev/null; exec "$@"`, 'custom-check', program, ...rest],
    env,
    shown: [program, ...rest].join(' '),
  };
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
