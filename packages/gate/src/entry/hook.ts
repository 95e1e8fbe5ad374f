import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { deadlineOf, deadlineRefusal, runHookProcess } from './hook-process.js';
import type { HookAnswer } from '../decide/index.js';
import { readStdinNow, stdinOfText } from './read-stdin.js';
import { askBroker, brokerSocket } from '../exec/index.js';

export { runHookProcess };

/**
 * The entry the installed hook command runs (bundled to dist/hook-bundle/decide.cjs by `npm run build`, started
 * by dist/hook-bundle/hook.cjs): it loads only what a hook decision needs, and always ends in the answer it
 * decided (0 or 2). The bundle only defines; dist/hook-bundle/hook.cjs (scripts/hook-entry.cjs) calls main(). No
 * top-level await (the bundle is CommonJS: `import` of node:fs would load the stream stack eagerly).
 */
export function main(): void {
  const started = Date.now();
  const argv = process.argv.slice(2);
  if (argv[0] === CHECK_CHILD) {
    void readRest()
      .then(async (text) => {
        const [{ answerCheckRequest }, { checkActions }] = await Promise.all([
          import('../decide/bounded-check.js'),
          import('@holdfast/core/rules/check-actions'),
        ]);
        return answerCheckRequest(text, checkActions);
      })
      .then(
        (results) => answer({ stdout: results, stderr: '', exitCode: 0 }),
        (error: unknown) => answer({ stdout: '', stderr: `${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 }),
      );
    return;
  }
  const deadline = deadlineOf(argv);
  // stdin is read now, non-blocking and within the deadline (never by a read blocked in a worker
  // thread, which would keep the process from exiting at its deadline); the decision gets what is left.
  const stdin = readStdinNow(deadline ?? UNBOUNDED_READ_MS);
  if (stdin.kind === 'late') {
    answer(deadlineRefusal(deadline ?? UNBOUNDED_READ_MS));
    return;
  }
  if (deadline !== undefined) argv[argv.indexOf('--deadline-ms') + 1] = String(Math.max(1, deadline - (Date.now() - started)));
  // Under holdfast exec the broker outside the sandbox decides (it can write the gate's state).
  const socket = brokerSocket();
  if (socket !== undefined) {
    const left = deadline === undefined ? UNBOUNDED_READ_MS : Math.max(1, deadline - (Date.now() - started));
    const projectDir = process.env.CLAUDE_PROJECT_DIR;
    const indexFile = process.env.GIT_INDEX_FILE;
    const request = {
      argv,
      cwd: process.cwd(),
      ...(projectDir !== undefined && projectDir !== '' ? { projectDir } : {}),
      ...(indexFile !== undefined && indexFile !== '' ? { gitIndexFile: resolve(process.cwd(), indexFile) } : {}),
    };
    const ask = (text: string) => askBroker(socket, { ...request, stdin: text }, left + BROKER_GRACE_MS);
    if (stdin.kind === 'read') void ask(stdin.text).then(answer);
    else void readRest().then(ask).then(answer);
    return;
  }
  void runHookProcess(argv, { stdin: stdin.kind === 'read' ? stdinOfText(stdin.text) : process.stdin, cwd: process.cwd(), env: process.env }).then(answer);
}

/** The first argument of a check child (decide/bounded-check.ts): the gate's own request on stdin, results on stdout. */
const CHECK_CHILD = '--check-child';

/** The broker enforces the deadline itself; the hook waits this much longer for its answer before refusing. */
const BROKER_GRACE_MS = 1000;

function readRest(): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(''));
  });
}

/** Without a deadline (a hand-run hook), stdin may take this long. */
const UNBOUNDED_READ_MS = 24_000;

function answer(decided: HookAnswer): void {
  if (decided.stdout !== '') writeSync(1, decided.stdout);
  if (decided.stderr !== '') writeSync(2, decided.stderr);
  // Exit now: a decision past its deadline may still hold the event loop (an unread stdin, a slow scan).
  process.exit(decided.exitCode);
}
