import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built hook entry (`npm run build`, which the test command runs first): one bundle, started by
// dist/hook-bundle/hook.cjs.
const DECIDE = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/decide.cjs', import.meta.url));

describe('the bundled hook', () => {
  it('holds the whole decision in one file: the entry loads no chunk of its own for a decision', () => {
    const source = readFileSync(DECIDE, 'utf8');
    const chunks = [...source.matchAll(/require\(["'`]\.\/([^"'`]+)["'`]\)/g)].map((match) => match[1]);
    expect(
      chunks.every((chunk) => /^(load-rulebook|pre-commit)-/.test(chunk ?? '')),
      chunks.join(', '),
    ).toBe(true);
  });

  it('loads no npm package for a decision: the schemas (zod) and the YAML parser wait for a rulebook cache miss', () => {
    // A value imported from contract/index.js on the hook's path once pulled every zod schema into
    // each hook process (about 100 ms of a 160 ms decision); modules on that path import the one
    // contract file they need.
    const source = readFileSync(DECIDE, 'utf8');
    const packages = [...source.matchAll(/require\(["'`]([^"'`]+)["'`]\)/g)]
      .map((match) => match[1] ?? '')
      .filter((name) => !Module.isBuiltin(name) && !name.startsWith('./'));
    expect(packages).toEqual([]);
  });
});

const HOOK = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));
/** The hook runs a project's rulebook or refuses: these projects use the shipped one. */
const SHIPPED_RULEBOOK = fileURLToPath(new URL('../../rulebooks/default.yaml', import.meta.url));

/** The hook as an agent starts it, with stdin from `feed` (a socket as Claude Code's, or a FIFO as Codex's), until it exits. */
function hookProcess(
  stdin: 'pipe' | number,
  deadlineMs: number,
): { child: ChildProcess; ended: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [HOOK, 'claude-code', '--deadline-ms', String(deadlineMs)], {
    stdio: [stdin, 'pipe', 'pipe'],
    env: { ...process.env, HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, ended };
}

/** The hook with a FIFO for stdin (as Codex starts it): the test holds the writing end until it closes it. */
function hookOnFifo(fifo: string, deadlineMs: number): { write: (text: string) => void; close: () => void; ended: ReturnType<typeof hookProcess>['ended'] } {
  execFileSync('mkfifo', [fifo]);
  const reading = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writing = openSync(fifo, constants.O_WRONLY);
  const { ended } = hookProcess(reading, deadlineMs);
  closeSync(reading);
  return { write: (text) => writeSync(writing, text), close: () => closeSync(writing), ended };
}

describe('the hook reads stdin without a stream, within its deadline', () => {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-hook-stdin-'));
  const event = JSON.stringify({
    session_id: 's',
    cwd: root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(root, 'src', 'x.ts'), content: 'console.log(1)\n' },
    tool_use_id: 't1',
  });

  it('decides on an event from a socket (as Claude Code sends it) and from a FIFO (as Codex does)', async () => {
    const socket = hookProcess('pipe', 24_000);
    socket.child.stdin?.end(event);
    const bySocket = await socket.ended;
    expect(bySocket.stdout).toContain('R4 NOLOG');
    const piped = hookOnFifo(join(root, 'events.fifo'), 24_000);
    piped.write(event);
    piped.close();
    expect((await piped.ended).stdout).toContain('R4 NOLOG');
  });

  it('refuses, at its deadline, a call whose event never finishes arriving on a socket or a FIFO (an agent that never closes stdin)', async () => {
    const socket = hookProcess('pipe', 300);
    socket.child.stdin?.write('{"session_id":');
    const bySocket = await socket.ended;
    socket.child.stdin?.destroy();
    expect(bySocket.code).toBe(2);
    expect(bySocket.stderr).toContain('did not finish within its deadline of 300 ms');
    const piped = hookOnFifo(join(root, 'stalled.fifo'), 300);
    piped.write('{"session_id":');
    const byFifo = await piped.ended;
    piped.close();
    expect(byFifo.code).toBe(2);
    expect(byFifo.stderr).toContain('did not finish within its deadline of 300 ms');
  });
});

describe('the hook loads RE2 only when a pattern could match', () => {
  // Observes (does not change) what the hook process reads: a preload that notes every file read.
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-hook-re2-'));
  const preload = join(folder, 'note-reads.cjs');
  writeFileSync(
    preload,
    "const fs = require('node:fs'); const read = fs.readFileSync; const seen = [];\n" +
      'fs.readFileSync = function (file, ...rest) { if (typeof file === "string") seen.push(file); return read.call(this, file, ...rest); };\n' +
      "process.on('exit', () => fs.writeFileSync(process.env.HOLDFAST_TEST_READS, seen.join('\\n')));\n",
  );
  const root = join(folder, 'repo');
  mkdirSync(join(root, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=t@holdfast.invalid', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'start'], { cwd: root });
  let call = 0;
  const hook = (name: string, tool: string, input: Record<string, string>): { stdout: string; reads: string[] } => {
    call += 1;
    const reads = join(folder, `reads-${call}.txt`);
    const stdout = execFileSync(process.execPath, ['--require', preload, HOOK, 'claude-code', '--deadline-ms', '24000'], {
      cwd: root,
      input: JSON.stringify({ session_id: 're2', cwd: root, hook_event_name: name, tool_name: tool, tool_input: input, tool_use_id: `toolu_${call}` }),
      env: { ...process.env, HOLDFAST_TEST_READS: reads, HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK },
      encoding: 'utf8',
    });
    return { stdout, reads: readFileSync(reads, 'utf8').split('\n') };
  };
  const readsRe2js = (reads: string[]) => reads.some((file) => /[\\/]re2js[\\/]/.test(file));

  it('decides a write that holds none of the literal text a pattern needs without loading re2js, and loads it after a test command, not at the commit', () => {
    // The first call parses the rulebook into the cache (re2js compiles every pattern to check it).
    hook('PreToolUse', 'Write', { file_path: join(root, 'src', 'warm.ts'), content: 'export const warm = 1;\n' });
    const plain = hook('PreToolUse', 'Write', { file_path: join(root, 'src', 'orders.ts'), content: 'export const orders = [];\n' });
    expect(plain.stdout).not.toContain('"deny"');
    expect(readsRe2js(plain.reads)).toBe(false);
    // A commit is judged against the test runs before it: the check after a passing test run sends the
    // test command's text to RE2 and keeps the answer, so the commit does not load it.
    const testCommand = 'npm test -- --run src/orders-1.test.ts';
    hook('PreToolUse', 'Bash', { command: testCommand });
    const after = hook('PostToolUse', 'Bash', { command: testCommand });
    expect(readsRe2js(after.reads)).toBe(true);
    // (The commit itself is refused: the two new modules have no tests. What matters here is what it loaded.)
    const commit = hook('PreToolUse', 'Bash', { command: 'git add -A && git commit -qm orders' });
    expect(commit.stdout).toContain('R3 TESTS');
    expect(readsRe2js(commit.reads)).toBe(false);
    // A command no rule can count (no literal text the order rule needs) is never sent to RE2 after its call.
    hook('PreToolUse', 'Bash', { command: 'node build.js' });
    expect(readsRe2js(hook('PostToolUse', 'Bash', { command: 'node build.js' }).reads)).toBe(false);
  });
});
