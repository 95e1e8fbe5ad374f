import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook } from '@holdfast/core/contract';
import { checkActions } from '@holdfast/core/rules';
import { loadRulebook } from '@holdfast/core/rules';
import { checkChangesWith } from '../decide/check-changes.js';
import { answerPostToolUse } from './post-tool.js';
import { beforeShellCall } from '../state/snapshot.js';

// Issue 27: a .ts file written as UTF-16 with a byte-order mark compiles, and read as UTF-8 no rule saw
// its console.log; a file under src/node_modules/ was never snapshotted, so never judged.

const NOW = () => new Date('2026-12-01T12:00:00Z');
let rulebook: Rulebook;
beforeAll(async () => {
  rulebook = await loadRulebook();
});

function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-encodings-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 1;\n');
  writeFileSync(join(root, '.gitignore'), '.holdfast/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'gate@example.test');
  git('config', 'user.name', 'gate');
  git('add', '-A');
  git('commit', '-qm', 'start');
  return root;
}

/** The after-call check of a shell call in which `act` ran, and the reason it gave the model ('' when none). */
async function afterCall(root: string, act: () => void): Promise<string> {
  beforeShellCall(root, 's1', 'toolu_1', NOW);
  act();
  const event = JSON.stringify({
    session_id: 's1',
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'node build.mjs' },
    tool_response: { stdout: '', stderr: '', interrupted: false },
    tool_use_id: 'toolu_1',
  });
  const judge = checkChangesWith({ rulebook, checkActions, replay: () => ({ actions: [{ type: 'run', cmd: 'npm test' }], observed: new Map() }) });
  const answer = await answerPostToolUse('claude-code', event, { env: {}, now: NOW, judge });
  return answer.stdout === '' ? '' : (JSON.parse(answer.stdout) as { reason: string }).reason;
}

function afterWriting(root: string, path: string, bytes: Buffer): Promise<string> {
  return afterCall(root, () => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  });
}

const SOURCE = 'export const y = () => console.log(1);\n';

describe('what a shell call wrote is judged as the text the compiler reads', () => {
  it.each([
    ['UTF-16LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SOURCE, 'utf16le')])],
    ['UTF-8 with a mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SOURCE)])],
  ])('a console.log in a %s file is found and the file removed', async (_name, bytes) => {
    const root = repository();
    const reason = await afterWriting(root, 'src/features/y.ts', bytes);
    expect(reason).toMatch(/src\/features\/y\.ts: deleted .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'features', 'y.ts'))).toBe(false);
  });

  it('a file under src/node_modules/ is judged like any file the rulebook reaches', async () => {
    const root = repository();
    const reason = await afterWriting(root, 'src/node_modules/x.ts', Buffer.from(SOURCE));
    expect(reason).toMatch(/src\/node_modules\/x\.ts: deleted .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'node_modules', 'x.ts'))).toBe(false);
  });
});

describe('what a shell call wrote that no rule can read is put back (issue 27: undecodable text is refused)', () => {
  const NOT_UTF8 = Buffer.concat([Buffer.from('export const x = "'), Buffer.from([0xc3, 0x28]), Buffer.from('";\n')]);
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xd8]);

  it('a new src/ module that is not UTF-8 is removed, the reason naming the file', async () => {
    const root = repository();
    const reason = await afterWriting(root, 'src/features/x.ts', NOT_UTF8);
    expect(reason).toMatch(/src\/features\/x\.ts: deleted .*src\/features\/x\.ts is not valid UTF-8 text: a rule cannot read it; write it as UTF-8/);
    expect(existsSync(join(root, 'src', 'features', 'x.ts'))).toBe(false);
  });

  it('an existing module overwritten with bytes that break its UTF-16 mark is restored', async () => {
    const root = repository();
    const broken = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export const total = 2;\n', 'utf16le'), Buffer.from([0x41])]);
    const reason = await afterWriting(root, 'src/cart.ts', broken);
    expect(reason).toMatch(/src\/cart\.ts: restored .*not valid UTF-16LE text, though its byte-order mark names UTF-16LE/);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
  });

  it('an image no content rule reaches stays', async () => {
    const root = repository();
    expect(await afterWriting(root, 'src/logo.png', PNG)).toBe('');
    expect(readFileSync(join(root, 'src', 'logo.png'))).toEqual(PNG);
  });
});

describe('a call the check cannot decide is put back (issue 27: fail closed means put back)', () => {
  it('a git repository created inside src/ is removed with what it holds; the rest of the call is judged as usual', async () => {
    const root = repository();
    beforeShellCall(root, 's1', 'toolu_1', NOW);
    execFileSync(
      'sh',
      [
        '-c',
        "mkdir -p src/inner && cd src/inner && git init -q && printf 'export const z = () => console.' > z.ts && printf 'log(1);\\n' >> z.ts && cd ../.. && printf 'notes\\n' > src/notes.txt",
      ],
      { cwd: root },
    );
    const event = JSON.stringify({
      session_id: 's1',
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'sh setup.sh' },
      tool_response: { stdout: '', stderr: '', interrupted: false },
      tool_use_id: 'toolu_1',
    });
    const judge = checkChangesWith({ rulebook, checkActions, replay: () => ({ actions: [{ type: 'run', cmd: 'npm test' }], observed: new Map() }) });
    const answer = await answerPostToolUse('claude-code', event, { env: {}, now: NOW, judge });
    const reason = (JSON.parse(answer.stdout) as { decision: string; reason: string }).reason;
    expect(reason).toMatch(/src\/inner\/: removed\. This command created a git repository inside the project/);
    expect(existsSync(join(root, 'src', 'inner'))).toBe(false);
    // The clean file of the same call stays: only what could not be judged is put back.
    expect(existsSync(join(root, 'src', 'notes.txt'))).toBe(true);
  });
});

// Issue 42, items 4 and 5: what a call wrote is judged as a checkout gives it back, and a commit it put
// on a ref of any namespace is judged like one on a branch.
describe('what a shell call left, as a checkout gives it back, on any ref', () => {
  /** Plain text of an even length, so that git can take it for UTF-16LE. */
  const EVEN_SOURCE = 'export const y = () => console.log(12);\n';

  it('a plain file a .gitattributes the call wrote makes git store as noise is judged as its text', async () => {
    const root = repository();
    const reason = await afterCall(root, () => {
      writeFileSync(join(root, '.gitattributes'), '*.ts working-tree-encoding=UTF-16LE\n');
      mkdirSync(join(root, 'src', 'features'), { recursive: true });
      writeFileSync(join(root, 'src', 'features', 'y.ts'), EVEN_SOURCE);
    });
    expect(reason).toMatch(/src\/features\/y\.ts: deleted .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'features', 'y.ts'))).toBe(false);
  });

  it('a commit a call put on a new namespace (refs/keep) with plumbing is judged, and the ref removed', async () => {
    const root = repository();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root }).toString('utf8').trim();
    const reason = await afterCall(root, () => {
      const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, input: SOURCE }).toString('utf8').trim();
      const index = join(root, '.git', 'keep-index');
      execFileSync('git', ['read-tree', 'HEAD'], { cwd: root, env: { ...process.env, GIT_INDEX_FILE: index } });
      execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},src/y.ts`], { cwd: root, env: { ...process.env, GIT_INDEX_FILE: index } });
      const tree = execFileSync('git', ['write-tree'], { cwd: root, env: { ...process.env, GIT_INDEX_FILE: index } })
        .toString('utf8')
        .trim();
      const commit = git('commit-tree', tree, '-p', 'HEAD', '-m', 'kept aside');
      mkdirSync(join(root, '.git', 'refs', 'keep'), { recursive: true });
      // written as a file, as no git command would: no reference-transaction runs
      writeFileSync(join(root, '.git', 'refs', 'keep', 'x'), `${commit}\n`);
    });
    expect(reason).toMatch(/commit [0-9a-f]{10} "kept aside" on refs\/keep\/x: .*R4 NOLOG: write to "src\/y\.ts"/);
    expect(reason).toMatch(/refs\/keep\/x was removed \(the command created it\)/);
    expect(execFileSync('git', ['for-each-ref', 'refs/keep/'], { cwd: root }).toString('utf8')).toBe('');
  });
});
