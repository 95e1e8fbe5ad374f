import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { BUBBLEWRAP_HINT, EXEC_MARKER, confinementArgs, findBubblewrap, findProgram } from './containment.js';
import { startGateBroker } from './gate-broker.js';
import type { BrokerRequest } from './gate-broker-client.js';
import { absentSettings, brokerJudging, execPlan, layoutChanges, repositoryLayout } from './exec-plan.js';
import type { AbsentSetting } from './exec-plan.js';
import { runGit } from '../io/index.js';
import type { HookAnswer } from '../decide/index.js';
import { HOLDFAST_DIR } from '../state/index.js';

export interface ExecAgentOptions {
  /** The agent's command line: program and arguments. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Run without bubblewrap when it is missing, with the weaker guarantee said out loud. */
  readonly weaker: boolean;
  readonly holdfastRoot: string;
  readonly node: string;
  /** Decides one hook event outside the sandbox (the hook process's own code). */
  readonly decide: (request: BrokerRequest, env: NodeJS.ProcessEnv) => Promise<HookAnswer>;
  /** Where exec says what it does (the weaker guarantee, the layer in force). */
  readonly say: (line: string) => void;
  readonly stdinIsTerminal: boolean;
}

/** How an exec ended: the agent ran (confined or, asked for, weaker) and exited, or exec refused to run it. */
export type ExecOutcome =
  { readonly kind: 'ran'; readonly layer: 'contained' | 'weaker'; readonly exitCode: number } | { readonly kind: 'refused'; readonly reason: string };

/** What `--weaker` gives up, in the words exec prints before the agent starts. */
export const WEAKER_GUARANTEE =
  'holdfast exec --weaker: bubblewrap is not available, so the agent runs unconfined. Lost: it can write the gate itself (the hook entry, .claude/, .codex/, .git/hooks, .git/config, .holdfast/, the rulebook), your ~/.gitconfig and ~/.config/git, and anything outside the project; a process it starts with setsid outlives it. Kept: the hook judges every tool call, the git hooks judge every commit, and `holdfast verify` in CI judges what is merged.';

function projectOf(cwd: string): string {
  try {
    return runGit(['rev-parse', '--show-toplevel'], { cwd }).toString('utf8').trim() || cwd;
  } catch {
    return cwd;
  }
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (signal === null ? 0 : (numbers[signal] ?? 0));
}

function wait(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(exitCodeOf(code, signal)));
  });
}

/** Makes the settings places that do not exist yet (see absentSettings); returns what it made. */
function makeAbsentSettings(places: readonly AbsentSetting[]): AbsentSetting[] {
  const made: AbsentSetting[] = [];
  for (const place of places) {
    try {
      if (place.kind === 'folder') mkdirSync(place.path);
      else {
        mkdirSync(dirname(place.path), { recursive: true });
        writeFileSync(place.path, place.content, { flag: 'wx' });
      }
      made.push(place);
    } catch {
      // made meanwhile by someone else: it exists, so it is mounted read-only as it is
    }
  }
  return made;
}

/** Removes what exec made and what is still as it made it (an empty folder, the neutral file). */
function removeMadeSettings(made: readonly AbsentSetting[]): void {
  // Last made first: a file made inside a folder made for it, or a folder made to hold another (.github/ for .github/hooks/), goes before its folder.
  for (const place of [...made].reverse()) {
    try {
      if (place.kind === 'folder') {
        if (readdirSync(place.path).length === 0) rmdirSync(place.path);
      } else if (readFileSync(place.path, 'utf8') === place.content) rmSync(place.path);
    } catch {
      // gone already, or changed by someone outside the sandbox: left as it is
    }
  }
}

/** bubblewrap's --info-fd JSON names the host pid of the namespace's init. */
function readChildPid(stream: NodeJS.ReadableStream | null): Promise<number | undefined> {
  return new Promise((resolve) => {
    if (stream === null) return resolve(undefined);
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    stream.on('error', () => resolve(undefined));
    stream.on('end', () => {
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      resolve(match === null ? undefined : Number(match[1]));
    });
  });
}

/** Running, as opposed to gone or a zombie (a zombie init has reaped every process of its namespace). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * bubblewrap reports the agent's exit as soon as it happens; the kernel then kills the rest of the
 * pid namespace. Exec returns only once the namespace's init is done, so nothing the agent started
 * is still running when exec's caller looks. Polled; bounded so a stuck kernel cannot hang exec.
 */
async function namespaceEnded(pid: number | undefined, limitMs = 10_000): Promise<void> {
  if (pid === undefined) return;
  for (let waited = 0; waited < limitMs && running(pid); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * `holdfast exec`: runs an agent confined by bubblewrap (see execPlan for what it may write), with a
 * broker outside the sandbox deciding its hooks, and returns when the agent has exited and every
 * process it started is gone. Without bubblewrap it refuses, unless `weaker` was asked for.
 */
export async function execAgent(options: ExecAgentOptions): Promise<ExecOutcome> {
  const [name, ...args] = options.argv;
  if (name === undefined) return { kind: 'refused', reason: 'holdfast exec: name the agent to run, e.g. `holdfast exec -- claude`.' };
  const program = findProgram(name, options.env, options.cwd);
  if (program === undefined) return { kind: 'refused', reason: `holdfast exec: cannot find "${name}" on PATH.` };
  const bwrap = findBubblewrap(options.env);
  if (bwrap === undefined) {
    if (!options.weaker) {
      return {
        kind: 'refused',
        reason: `holdfast exec: bubblewrap (bwrap) is not installed, so the agent cannot be confined; ${BUBBLEWRAP_HINT}. To run it anyway with the weaker guarantee, add --weaker.`,
      };
    }
    options.say(WEAKER_GUARANTEE);
    // Its own process group, ended with it: what it started without setsid does not outlive it.
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: 'inherit', detached: true });
    const exitCode = await wait(child);
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    return { kind: 'ran', layer: 'weaker', exitCode };
  }
  const project = projectOf(options.cwd);
  mkdirSync(join(project, HOLDFAST_DIR), { recursive: true });
  const brokerDir = mkdtempSync(join(tmpdir(), 'holdfast-exec-'));
  const broker = await startGateBroker({
    socketPath: join(brokerDir, 'gate.sock'),
    project,
    judging: brokerJudging(project, options.cwd, options.env),
    layoutChanges: (
      (layout) => () =>
        layoutChanges(layout, project)
    )(repositoryLayout(project)),
    decide: (request) => options.decide(request, options.env),
  });
  const made = makeAbsentSettings(absentSettings(project, options.env));
  try {
    const plan = execPlan({
      project,
      cwd: options.cwd,
      env: options.env,
      program,
      programPaths: args.filter((arg) => isAbsolute(arg)),
      holdfastRoot: options.holdfastRoot,
      node: options.node,
      brokerDir,
      newSession: !options.stdinIsTerminal,
    });
    const child = spawn(bwrap, ['--info-fd', '3', ...confinementArgs(plan), program, ...args], {
      cwd: options.cwd,
      env: { ...options.env, [EXEC_MARKER]: '1' },
      stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    });
    const init = readChildPid(child.stdio[3] as NodeJS.ReadableStream | null);
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onTerm = forward('SIGTERM');
    const onHup = forward('SIGHUP');
    process.on('SIGTERM', onTerm);
    process.on('SIGHUP', onHup);
    try {
      const exitCode = await wait(child);
      await namespaceEnded(await init);
      return { kind: 'ran', layer: 'contained', exitCode };
    } finally {
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHup);
    }
  } finally {
    await broker.close();
    rmSync(brokerDir, { recursive: true, force: true });
    removeMadeSettings(made);
  }
}
