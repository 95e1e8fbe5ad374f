import { createInterface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest, Approver } from '@holdfast/lab/experiment';

export interface TerminalApprover extends Approver {
  /** Stops reading the terminal (the run ended): a process whose input is a pipe that stays open can then exit. */
  close(): void;
}

/**
 * Asks a person at the terminal, one commit at a time. Only `y` or `yes` approves: anything else,
 * an empty line, end of input (recorded as no answer) or the deadline is a refusal. One reader serves the whole run, so
 * answers piped in ahead (`printf 'y\nn\n' | holdfast run --approve ask`) each answer one question
 * in turn instead of the first question's reader swallowing them all.
 */
export function terminalApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): TerminalApprover {
  const lines: string[] = [];
  let ended = false;
  let waiting: ((line: string | undefined) => void) | undefined;
  let reader: ReturnType<typeof createInterface> | undefined;
  const open = () => {
    if (reader !== undefined) return;
    reader = createInterface({ input, terminal: false });
    reader.on('line', (line) => {
      if (waiting !== undefined) {
        const deliver = waiting;
        waiting = undefined;
        deliver(line);
      } else lines.push(line);
    });
    reader.on('close', () => {
      ended = true;
      const deliver = waiting;
      waiting = undefined;
      deliver?.(undefined);
    });
  };
  /** The next line typed (or piped) after the ones already answered; undefined at end of input or on abort. */
  const nextLine = (signal: AbortSignal) =>
    new Promise<string | undefined>((resolve) => {
      if (lines.length > 0) return resolve(lines.shift());
      if (ended || signal.aborted) return resolve(undefined);
      const onAbort = () => {
        waiting = undefined;
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiting = (line) => {
        signal.removeEventListener('abort', onAbort);
        resolve(line);
      };
    });

  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    if (signal.aborted) return { decision: 'refused', by: 'cancel' };
    open();
    const seconds = Math.max(0, Math.round((request.deadline.getTime() - Date.now()) / 1000));
    const files = request.files.map((file) => `    ${file.content === null ? 'delete' : 'write '} ${file.path}`).join('\n');
    output.write(`\nCommit requested in ${request.roundId} (held arm):\n  message: ${request.message}\n  files:\n${files || '    (none)'}\n`);
    output.write(`Approve this commit? [y/N] (refused automatically in ${seconds} s) `);
    const answer = await nextLine(signal);
    // The input ended (closed stdin, a pipe run dry): nobody answered, so it is "no answer", never a person's refusal.
    if (answer === undefined) return signal.aborted ? { decision: 'refused', by: 'cancel' } : { decision: 'refused', by: 'no-answer' };
    return { decision: /^(y|yes)$/i.test(answer.trim()) ? 'approved' : 'refused', by: 'person' };
  };

  let queue: Promise<unknown> = Promise.resolve();
  return {
    decide(request, signal) {
      const answer = queue.then(() => ask(request, signal));
      queue = answer.catch(() => undefined);
      return answer;
    },
    close() {
      reader?.close();
      // readline pauses the stream on close; a pipe's handle must also stop holding the event loop.
      (input as { unref?: () => void }).unref?.();
    },
  };
}
