import { run } from '../commands/hook.js';
import type { CliIo } from '@holdfast/core/command';
import { withinDeadline } from '../io/index.js';
import type { Timers } from '../io/index.js';
import type { HookAnswer } from '../decide/index.js';

/**
 * Keeps what the hook command writes, so nothing reaches the agent unless the decision was in time.
 * The command only ever calls `write`; a real Writable would load Node's stream stack for nothing.
 */
function collected(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = {
    write(chunk: unknown): boolean {
      text += String(chunk);
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WritableStream, text: () => text };
}

function refusal(message: string): HookAnswer {
  return { stdout: '', stderr: `holdfast gate: ${message}\n`, exitCode: 2 };
}

/** The answer to a call whose decision (stdin included) was not done by the hook's deadline. */
export function deadlineRefusal(deadline: number): HookAnswer {
  return refusal(
    `the decision did not finish within its deadline of ${deadline} ms (80 % of the hook timeout), so this call is refused. Try again; if it keeps happening, run \`holdfast doctor\` in the project.`,
  );
}

/** The deadline the installed command gives (`--deadline-ms N`), if it is a whole number of milliseconds. */
export function deadlineOf(argv: readonly string[]): number | undefined {
  const at = argv.indexOf('--deadline-ms');
  const value = at === -1 ? Number.NaN : Number(argv[at + 1]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * One hook process, as the installed command starts it: `<agent> --deadline-ms N [hook options]`.
 * The decision runs under the deadline; one that is not done by then is a refusal (exit 2 blocks in
 * Claude Code and Codex), so a slow decision can never outlast the agent's timeout and pass.
 */
export async function runHookProcess(argv: readonly string[], io: Omit<CliIo, 'stdout' | 'stderr'>, timers?: Timers): Promise<HookAnswer> {
  const args = [...argv];
  const at = args.indexOf('--deadline-ms');
  const deadline = deadlineOf(args);
  if (at !== -1) {
    if (deadline === undefined)
      return refusal(`--deadline-ms needs a whole number of milliseconds, got "${args[at + 1] ?? ''}"; reinstall the gate with \`holdfast install\`.`);
    args.splice(at, 2);
  }
  const stdout = collected();
  const stderr = collected();
  const work = run(args, { ...io, stdout: stdout.stream, stderr: stderr.stream }, deadline === undefined ? {} : { deadlineAt: Date.now() + deadline });
  try {
    if (deadline === undefined) {
      const exitCode = await work;
      return { stdout: stdout.text(), stderr: stderr.text(), exitCode };
    }
    const raced = await withinDeadline(work, deadline, timers);
    if (!raced.done) return deadlineRefusal(deadline);
    return { stdout: stdout.text(), stderr: stderr.text(), exitCode: raced.value };
  } catch (error) {
    return refusal(`internal error, so this call is refused: ${error instanceof Error ? error.message : String(error)}`);
  }
}
