// `npm test`'s last step, in two passes (the lists are in scripts/test-lines.mjs):
// 1. every test on the node running npm, but for the gate's end-to-end files kept for the second line;
// 2. with vitest itself on a second Node line (Node 24, the active LTS, or Node 20 when npm runs on 24): the
//    end-to-end files that run holdfast inside vitest's own process once more (the CLI's verbs, the sandbox, the
//    trials, the web server), and those gate files, so the gate's suite is split between the lines as the
//    real-client sessions are (those pick their line per session with nodeOfLine).
// The second line's node is Node's own binary from the npm registry, in the agent cache the tests fill (never a
// project dependency). Both passes run even when the first fails, so one run says what fails on which line.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const SECOND_LINE_CONFIG = fileURLToPath(new URL('../vitest.second-line.config.ts', import.meta.url));

function vitest(node, args, env = process.env) {
  const result = spawnSync(node, [VITEST, 'run', ...args], { stdio: 'inherit', env });
  if (result.error !== undefined) throw result.error;
  return result.status ?? 1;
}

const line = Number(process.versions.node.split('.')[0]) === 24 ? 'node-20' : 'node-24';
const args = process.argv.slice(2);
// Arguments (`node scripts/test.mjs test/e2e/cli-run`) make a focused run: one pass of what they name, on this node.
const first = vitest(process.execPath, args, args.length > 0 ? process.env : { ...process.env, HOLDFAST_TEST_PASS: 'first' });
if (args.length > 0) {
  process.stdout.write(`npm test: the second pass (on ${line}) runs only without arguments.\n`);
  process.exit(first);
}
let node;
try {
  // The first pass built dist/ (test/setup/fresh-dist.ts), which holds the agent cache's installer.
  const { ensureNodeLine } = await import('../packages/lab/dist/harness/index.js');
  node = await ensureNodeLine(line);
} catch (error) {
  process.stderr.write(`npm test: could not obtain ${line} for the second pass: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
process.stdout.write(`\nnpm test: second pass, on ${line} (${node}): the in-process end-to-end files again, and the gate files kept for this line\n`);
const second = vitest(node, ['--config', SECOND_LINE_CONFIG]);
process.exit(first !== 0 ? first : second);
