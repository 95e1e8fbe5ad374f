import { writeSync } from 'node:fs';
import { runHookProcess } from '../gate/hook-process.js';

/**
 * The entry the installed hook command runs (bundled to dist/hook/hook.cjs by `npm run build`): it
 * loads only what a hook decision needs, and always ends in the answer it decided (0 or 2). No
 * top-level await (the bundle is CommonJS: `import` of node:fs would load the stream stack eagerly).
 */
// stdin stays a stream: a read blocked in a worker thread would keep the process from exiting at its deadline.
void runHookProcess(process.argv.slice(2), { stdin: process.stdin, cwd: process.cwd(), env: process.env }).then((answer) => {
  if (answer.stdout !== '') writeSync(1, answer.stdout);
  if (answer.stderr !== '') writeSync(2, answer.stderr);
  // Exit now: a decision past its deadline may still hold the event loop (an unread stdin, a slow scan).
  process.exit(answer.exitCode);
});
