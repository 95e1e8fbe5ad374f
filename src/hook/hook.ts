import { writeSync } from 'node:fs';
import { runHookProcess } from './hook-process.js';

export { runHookProcess };

/**
 * The entry the installed hook command runs (bundled to dist/hook/decide.cjs by `npm run build`, started
 * by dist/hook/hook.cjs): it loads only what a hook decision needs, and always ends in the answer it
 * decided (0 or 2). The bundle only defines; the loader calls main(), and the build calls
 * runHookProcess on sample decisions to record V8's code for them (scripts/warm-hook-cache.cjs). No
 * top-level await (the bundle is CommonJS: `import` of node:fs would load the stream stack eagerly).
 */
export function main(): void {
  // stdin stays a stream: a read blocked in a worker thread would keep the process from exiting at its deadline.
  void runHookProcess(process.argv.slice(2), { stdin: process.stdin, cwd: process.cwd(), env: process.env }).then((answer) => {
    if (answer.stdout !== '') writeSync(1, answer.stdout);
    if (answer.stderr !== '') writeSync(2, answer.stderr);
    // Exit now: a decision past its deadline may still hold the event loop (an unread stdin, a slow scan).
    process.exit(answer.exitCode);
  });
}
