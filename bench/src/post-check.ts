import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAfterCall } from '@holdfast/gate';
import type { ChangeCheck } from '@holdfast/gate';
import { beforeShellCall, findSnapshotRecord } from '@holdfast/gate';

const FOLDERS = 40;
const FILES_PER_FOLDER = 50;
const SAMPLES = 21;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timeMs(action: () => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function writeFiles(root: string): void {
  for (let folder = 0; folder < FOLDERS; folder += 1) {
    mkdirSync(join(root, 'src', `m${folder}`), { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file += 1) {
      writeFileSync(join(root, 'src', `m${folder}`, `f${file}.ts`), `export const value${file} = ${file}; // module ${folder}\n`);
    }
  }
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'app.js'), 'built\n');
  writeFileSync(join(root, '.gitignore'), 'dist/\n.holdfast/\n');
}

/** A committed repository of FOLDERS × FILES_PER_FOLDER small modules, plus ignored build output. */
function buildRepository(root: string): void {
  writeFiles(root);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.test', '-c', 'user.name=bench', 'commit', '-qm', 'start');
}

/** The cheapest judge: the bench measures snapshot and diff, not the rules (the checks bench does). */
const judgeNothing: ChangeCheck = async () => [];

const SNAPSHOT_MODULE = new URL('../../packages/gate/dist/snapshot.js', import.meta.url).href;
const POST_TOOL_MODULE = new URL('../../packages/gate/dist/post-tool.js', import.meta.url).href;

/** The two sides as the hook runs them: a fresh node process that loads only the gate modules it needs. */
const PRE_PROCESS = `const { beforeShellCall } = await import(${JSON.stringify(SNAPSHOT_MODULE)}); beforeShellCall(process.argv[1], 'bench', process.argv[2]);`;
const POST_PROCESS = `const { answerPostToolUse } = await import(${JSON.stringify(POST_TOOL_MODULE)});
const input = (await import('node:fs')).readFileSync(0, 'utf8');
const answer = await answerPostToolUse('claude-code', input, { env: {}, now: () => new Date(), judge: async () => [] });
process.stdout.write(answer.stdout);`;

function processMs(script: string, args: string[], input = ''): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script, ...args], { input, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 || result.stdout !== '') throw new Error(`the bench hook process failed: ${result.stderr}${result.stdout}`);
  return elapsed;
}
const refuseAll: ChangeCheck = async ({ actions }) => actions.map((_, actionIndex) => ({ actionIndex, rule: 'R4', name: 'NOLOG', detail: 'R4 NOLOG: bench.' }));

/**
 * The after-the-fact check's cost on a repository of 2,000 files: the snapshot before a shell call
 * (PreToolUse), the snapshot + diff after it (PostToolUse) when the call changed nothing, and when it
 * changed one file that is then put back. Medians; the first snapshot (store created, every file
 * hashed) is reported on its own.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-bench-post-'));
  const plain = mkdtempSync(join(tmpdir(), 'holdfast-bench-post-plain-'));
  try {
    buildRepository(root);
    writeFiles(plain);
    const files = FOLDERS * FILES_PER_FOLDER;
    const firstPlain = await timeMs(() => beforeShellCall(plain, 'bench', 'first'));
    const first = await timeMs(() => beforeShellCall(root, 'bench', 'first'));
    findSnapshotRecord(root, 'bench', 'first')?.close();
    const spawn: number[] = [];
    const node: number[] = [];
    const preProcess: number[] = [];
    const postProcess: number[] = [];
    const before: number[] = [];
    const afterClean: number[] = [];
    const afterRevert: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      spawn.push(await timeMs(() => spawnSync('git', ['--version'], { stdio: 'ignore' })));
      const id = `call-${sample}`;
      before.push(await timeMs(() => beforeShellCall(root, 'bench', id)));
      const open = findSnapshotRecord(root, 'bench', id);
      if (open === undefined || 'readOnly' in open.record) throw new Error('the bench lost its snapshot record');
      const cleanBefore = open.record;
      afterClean.push(await timeMs(() => checkAfterCall({ root, session: 'bench', before: cleanBefore, judge: judgeNothing })));
      open.close();

      const revertId = `revert-${sample}`;
      beforeShellCall(root, 'bench', revertId);
      writeFileSync(join(root, 'src', 'm7', 'f7.ts'), `console.log(${sample});\n`);
      const changed = findSnapshotRecord(root, 'bench', revertId);
      if (changed === undefined || 'readOnly' in changed.record) throw new Error('the bench lost its snapshot record');
      const revertBefore = changed.record;
      afterRevert.push(await timeMs(() => checkAfterCall({ root, session: 'bench', before: revertBefore, judge: refuseAll })));
      changed.close();

      node.push(processMs('0', []));
      const hookId = `hook-${sample}`;
      preProcess.push(processMs(PRE_PROCESS, [root, hookId]));
      const event = JSON.stringify({
        session_id: 'bench',
        cwd: root,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: hookId,
      });
      postProcess.push(processMs(POST_PROCESS, [], event));
    }
    const unit = median(spawn);
    const line = (label: string, ms: number) => print(`post: ${label.padEnd(58)} ${ms.toFixed(1).padStart(7)} ms  (${(ms / unit).toFixed(1)} git spawns)`);
    print(`post: ${files} files (+ ignored build output); medians of ${SAMPLES}, and in units of one \`git --version\` spawn measured alongside`);
    line('one `git --version` spawn', unit);
    line('first snapshot, plain folder (store created, all hashed)', firstPlain);
    line('first snapshot, git repository (starts from its index)', first);
    line('snapshot before a shell call (PreToolUse)', median(before));
    line('snapshot + diff after a call that changed nothing', median(afterClean));
    line('snapshot + diff + judge + put back one changed file', median(afterRevert));
    const base = median(node);
    const hookLine = (label: string, ms: number) => print(`post: ${label.padEnd(58)} ${ms.toFixed(1).padStart(7)} ms  (${(ms / base).toFixed(2)}x node -e 0)`);
    hookLine('`node -e 0`, measured alongside', base);
    hookLine('PreToolUse side: snapshot in a fresh node process', median(preProcess));
    hookLine('PostToolUse, call changed nothing, fresh node process', median(postProcess));
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  }
}
