import { writeSync } from 'node:fs';
import { deadlineOf, deadlineRefusal, runHookProcess } from './hook-process.js';
import type { HookAnswer } from '../hook-answer.js';
import { readStdinNow, stdinOfText } from './read-stdin.js';

export { runHookProcess };

/**
 * The entry the installed hook command runs (bundled to dist/hook/decide.cjs by `npm run build`, started
 * by dist/hook/hook.cjs): it loads only what a hook decision needs, and always ends in the answer it
 * decided (0 or 2). The bundle only defines; dist/hook/hook.cjs (scripts/hook-entry.cjs) calls main(). No
 * top-level await (the bundle is CommonJS: `import` of node:fs would load the stream stack eagerly).
 */
export function main(): void {
  const started = Date.now();
  const argv = process.argv.slice(2);
  const deadline = deadlineOf(argv);
  // stdin is read now, non-blocking and within the deadline (never by a read blocked in a worker
  // thread, which would keep the process from exiting at its deadline); the decision gets what is left.
  const stdin = readStdinNow(deadline ?? UNBOUNDED_READ_MS);
  if (stdin.kind === 'late') {
    answer(deadlineRefusal(deadline ?? UNBOUNDED_READ_MS));
    return;
  }
  if (deadline !== undefined) argv[argv.indexOf('--deadline-ms') + 1] = String(Math.max(1, deadline - (Date.now() - started)));
  void runHookProcess(argv, { stdin: stdin.kind === 'read' ? stdinOfText(stdin.text) : process.stdin, cwd: process.cwd(), env: process.env }).then(answer);
}

/** Without a deadline (a hand-run hook), stdin may take this long. */
const UNBOUNDED_READ_MS = 24_000;

function answer(decided: HookAnswer): void {
  if (decided.stdout !== '') writeSync(1, decided.stdout);
  if (decided.stderr !== '') writeSync(2, decided.stderr);
  // Exit now: a decision past its deadline may still hold the event loop (an unread stdin, a slow scan).
  process.exit(decided.exitCode);
}
