import { createInterface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../experiment/approvals.js';

/**
 * Asks a person at the terminal, one commit at a time. Only `y` or `yes` approves: anything else,
 * an empty line, end of input or the deadline is a refusal.
 */
export function terminalApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (request: ApprovalRequest, signal: AbortSignal) =>
    new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) return resolve({ decision: 'refused', by: 'cancel' });
      const seconds = Math.max(0, Math.round((request.deadline.getTime() - Date.now()) / 1000));
      const files = request.files.map((file) => `    ${file.content === null ? 'delete' : 'write '} ${file.path}`).join('\n');
      output.write(
        `\nCommit requested in ${request.roundId} (held arm):\n  message: ${request.message}\n  files:\n${files || '    (none)'}\n`,
      );
      const prompt = createInterface({ input, output, terminal: false });
      let settled = false;
      const settle = (decision: ApprovalDecision) => {
        if (settled) return;
        settled = true;
        prompt.close();
        resolve(decision);
      };
      signal.addEventListener('abort', () => settle({ decision: 'refused', by: 'cancel' }), { once: true });
      prompt.on('close', () => settle({ decision: 'refused', by: 'person' }));
      prompt.question(`Approve this commit? [y/N] (refused automatically in ${seconds} s) `, (answer) => {
        const approved = /^(y|yes)$/i.test(answer.trim());
        settle({ decision: approved ? 'approved' : 'refused', by: 'person' });
      });
    });
  return {
    decide(request, signal) {
      const answer = queue.then(() => ask(request, signal));
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}
