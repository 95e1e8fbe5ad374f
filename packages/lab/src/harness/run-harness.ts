import type { AgentHarness } from './harness.js';
import { harnessOf } from './harnesses.js';
import { harnessInvocation } from './invocation.js';
import type { HarnessInvocation } from './invocation.js';
import { runHarnessProcess } from './process.js';
import type { HarnessExit } from './process.js';
import type { HarnessReport } from './report.js';

export interface HarnessRunOptions {
  readonly harness: AgentHarness;
  readonly prompt: string;
  /** The repository the harness works in. */
  readonly workDir: string;
  /** Its own HOME, with a `tmp/` folder in it. */
  readonly homeDir: string;
  /**
   * The run's turn cap, when it is lower than the target's: it goes on the command line, and a
   * harness whose output counts turns as they stream (Codex) is stopped past it. Absent: the
   * target's own cap, on the command line only.
   */
  readonly maxTurns?: number;
  readonly timeoutMs: number;
  /** Past this much stdout the rest is not kept (the reports are at the end, or streamed). */
  readonly outputCapBytes: number;
  /** The command line as it runs, inside a sandbox where there is one (see confineHarness). */
  readonly confine?: (command: { readonly file: string; readonly args: readonly string[] }) => { file: string; args: string[] };
  /** Asked every `everyMs` while the harness runs; a returned text stops it with that reason (the sandbox's size cap). */
  readonly watch?: { readonly everyMs: number; readonly check: () => string | undefined };
  readonly signal?: AbortSignal;
}

export interface HarnessRun {
  readonly exit: HarnessExit;
  readonly report: HarnessReport;
  readonly invocation: HarnessInvocation;
  /** The turn cap stopped it (see maxTurns). */
  readonly turnCapHit: boolean;
}

/**
 * One run of a harness, the same for agent mode's arms and pressure's live half: its command line,
 * what its HOME needs first, the process (confined where the caller confines it) until it stops, a
 * limit stops it or the run is cancelled, and its report read the way its folder says.
 */
export async function runHarness(options: HarnessRunOptions): Promise<HarnessRun> {
  const { target, binary } = options.harness;
  const definition = harnessOf(target.provider);
  const capped = options.maxTurns !== undefined ? { ...target, maxTurns: options.maxTurns } : target;
  const invocation = harnessInvocation(capped, {
    binary,
    prompt: options.prompt,
    workDir: options.workDir,
    homeDir: options.homeDir,
    env: options.harness.env,
  });
  await definition.prepare?.({ bin: binary, workDir: options.workDir, env: invocation.env, target: capped });
  const reader = definition.createReader();
  const { maxTurns } = options;
  let turnCapHit = false;
  const command = options.confine?.(invocation) ?? invocation;
  const exit = await runHarnessProcess({
    file: command.file,
    args: command.args,
    ...(invocation.stdin !== undefined ? { stdin: invocation.stdin } : {}),
    env: invocation.env,
    cwd: options.workDir,
    timeoutMs: options.timeoutMs,
    outputCapBytes: options.outputCapBytes,
    ...(options.watch !== undefined ? { watch: options.watch } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    onLine: (line: string) => {
      reader.push(line);
      const turns = reader.turns();
      if (maxTurns === undefined || turns === undefined || turns <= maxTurns) return undefined;
      turnCapHit = true;
      return `it went past the turn cap of ${maxTurns}`;
    },
  });
  return { exit, report: reader.report(exit.stdout), invocation, turnCapHit };
}
