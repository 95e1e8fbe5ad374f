import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from '../test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { allowancePath, grantAllowance } from '../state/allowance.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from '../hook/run-hook.js';
import { saveSessionState } from '../state/session-state.js';
import type { SessionState } from '../state/session-state.js';
import { workTreeIdentity } from '../state/tree-identity.js';
import { claude } from '../test-support/payloads.js';

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-git-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['config', 'user.email', 'gate@example.test'], { cwd: root });
  execFileSync('git', ['config', 'user.name', 'gate'], { cwd: root });
  mkdirSync(join(root, 'src'));
  return root;
}

function stage(root: string, path: string, content: string): void {
  writeFileSync(join(root, path), content);
  execFileSync('git', ['add', path], { cwd: root });
}

/** The environment of a shell Claude Code started: the commit is an agent's. */
const AGENT_SHELL = { CLAUDECODE: '1' };

async function preCommit(root: string, env: NodeJS.ProcessEnv = {}) {
  const io = memoryIo({ cwd: root, env });
  const code = await main(['hook', 'git', '--rulebook', defaultRulebookPath()], io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast hook git (pre-commit)', () => {
  it('refuses a staged new module without its test, and says R6 was not judged (no agent session)', async () => {
    const root = repo();
    stage(root, 'src/orders.ts', 'export const orders = 1;\n');
    const result = await preCommit(root);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/R3 TESTS.*src\/orders\.ts/);
    expect(result.err).toMatch(/R6 ORDER not judged/);
  });

  it('compares file names as bytes: src/mod\\xff.ts does not take src/mod\\xfe.test.ts as its test (issue 46)', async () => {
    const root = repo();
    const named = (name: string) => Buffer.concat([Buffer.from(join(root, 'src/'), 'utf8'), Buffer.from(name, 'latin1')]);
    writeFileSync(named('mod\xff.ts'), 'export const mod = 1;\n');
    writeFileSync(named('mod\xfe.test.ts'), 'import "./mod";\n');
    execFileSync('git', ['add', 'src'], { cwd: root });
    const refused = await preCommit(root);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/1 violation[\s\S]*R3 TESTS/);
    writeFileSync(named('mod\xff.test.ts'), 'import "./mod";\n');
    execFileSync('git', ['add', 'src'], { cwd: root });
    const paired = await preCommit(root);
    expect(paired.err).toBe('');
    expect(paired.code).toBe(0);
  });

  it('allows a module staged with its test, then judges an edit of it as an edit', async () => {
    const root = repo();
    stage(root, 'src/orders.ts', 'export const orders = 1;\n');
    stage(root, 'src/orders.test.ts', 'import "./orders";\n');
    const result = await preCommit(root);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/2 staged changes judged.*R6 ORDER not judged/);
    execFileSync('git', ['commit', '-q', '-m', 'orders'], { cwd: root });
    stage(root, 'src/orders.ts', 'export const orders = 2;\n');
    expect((await preCommit(root)).code).toBe(0);
    stage(root, 'src/orders.ts', 'export const orders = 2;\nconsole.log(orders);\n');
    expect((await preCommit(root)).err).toMatch(/R4 NOLOG/);
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit.map((entry) => entry.decision)).toEqual(['allow', 'allow', 'deny']);
  });

  it('lets a commit through a rule at warn, saying it on stderr and recording it as warned; a rule that blocks still refuses', async () => {
    const root = repo();
    const book = join(root, 'levels.yaml');
    writeFileSync(book, readFileSync(defaultRulebookPath(), 'utf8').replace(/(\n {2}- id: R4\n)/, '$1    enforcement: warn\n'));
    const hook = async () => {
      const io = memoryIo({ cwd: root, env: {} });
      const code = await main(['hook', 'git', '--rulebook', book], io);
      return { code, out: io.out(), err: io.err() };
    };
    stage(root, 'src/orders.ts', 'export const orders = 2;\nconsole.log(orders);\n');
    stage(root, 'src/orders.test.ts', 'import "./orders";\n');
    const warned = await hook();
    expect(warned.code).toBe(0);
    expect(warned.out).toMatch(/2 staged changes judged, no blocking rule refused them/);
    expect(warned.err).toMatch(/holdfast: warning, 1 rule at warn level broken \(not enforced yet\):\n {2}R4 NOLOG: .*src\/orders\.ts/);
    stage(root, 'lib.ts', 'export const outside = 1;\n');
    const refused = await hook();
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/R2 SCOPE/);
    expect(refused.err).toMatch(/holdfast: warning, 1 rule at warn level broken/);
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit.map((entry) => [entry.decision, entry.rule])).toEqual([
      ['warned', 'R4'],
      ['deny', 'R2'],
    ]);
  });

  it("lists every failure of the staged changes, and never honours a person's allowance", async () => {
    const root = repo();
    grantAllowance(root, { rule: undefined, reason: 'not for commits', now: new Date() });
    stage(root, 'src/orders.test.ts', 'console.log(1);\n');
    stage(root, 'notes.md', 'hello\n');
    const result = await preCommit(root);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/2 violations/);
    expect(result.err).toMatch(/R4 NOLOG/);
    expect(result.err).toMatch(/R2 SCOPE.*notes\.md/);
    expect(result.err).not.toMatch(/HOLDFAST_GATE|bypass the gate/i);
    expect(existsSync(allowancePath(root))).toBe(true);
  });

  it('judges R6 from the agent session the gate saw last: a test run that passed on exactly the staged tree', async () => {
    const root = repo();
    stage(root, 'src/orders.test.ts', 'export {};\n');
    const session = (runs: SessionState['runs']) => saveSessionState(root, 'agent-1', { version: 1, created: [], runs });
    session([{ cmd: 'npm test', tree: workTreeIdentity(root) }, { cmd: 'git add -A' }]);
    expect((await preCommit(root, AGENT_SHELL)).out).toMatch(
      /R6 ORDER judged from the agent session agent-1 \(the commit was made in a shell an agent started \(CLAUDECODE is set\)\): the required commands passed on this tree/,
    );
    session([{ cmd: 'git status' }]);
    // A person's commit, outside any agent call: the content rules judge it, the session's runs do not.
    const person = await preCommit(root);
    expect(person.code).toBe(0);
    expect(person.out).toMatch(/R6 ORDER not judged: this commit was made outside any agent tool call \(a person's\), so only the content rules judge it/);
    const untested = await preCommit(root, AGENT_SHELL);
    expect(untested.code).toBe(1);
    expect(untested.err).toMatch(
      /R6 ORDER: commit \(action \d+\) comes after the last change .*no test run|R6 ORDER: commit \(action \d+\) has no test run before it; run npm test/,
    );
    session([{ cmd: 'npm test', failed: 'exit code 1' }, { cmd: 'ls' }]);
    expect((await preCommit(root, AGENT_SHELL)).err).toMatch(/R6 ORDER: .*did not pass: exit code 1/);
    session([{ cmd: 'npm test' }]);
    expect((await preCommit(root, AGENT_SHELL)).err).toMatch(/R6 ORDER: .*its end was not seen by the gate/);
  });

  it('binds a passing run to its tree: a file changed after it refuses the commit until it runs again', async () => {
    const root = repo();
    stage(root, 'src/orders.test.ts', 'export {};\n');
    const session = () => saveSessionState(root, 'agent-1', { version: 1, created: [], runs: [{ cmd: 'npm test', tree: workTreeIdentity(root) }] });
    session();
    expect((await preCommit(root, AGENT_SHELL)).code).toBe(0);
    stage(root, 'src/orders.test.ts', 'export const changed = 1;\n');
    const stale = await preCommit(root, AGENT_SHELL);
    expect(stale.code).toBe(1);
    expect(stale.err).toMatch(/R6 ORDER: .*passed on another tree than the one being committed/);
    session();
    expect((await preCommit(root, AGENT_SHELL)).code).toBe(0);
    // A file the run saw that the commit leaves out: the tree committed is not the tree tested.
    writeFileSync(join(root, 'src', 'helper.ts'), 'export const helper = 1;\n');
    session();
    expect((await preCommit(root, AGENT_SHELL)).err).toMatch(/passed on another tree/);
  });

  it('judges requires rules the same way: each required command must have passed on the staged tree', async () => {
    const root = repo();
    const rulebook = join(root, '.holdfast-rulebook.yaml');
    writeFileSync(
      rulebook,
      [
        'version: 1',
        'name: checked',
        'description: Commit only what passed the checks.',
        'rules:',
        '  - id: R7',
        '    name: CHECKED',
        '    prose: Run the type check and the linter before committing.',
        '    check:',
        '      kind: requires',
        '      commands:',
        '        - { name: the type check, run: [npm run type-check] }',
        '        - { name: the linter, run: [npm run lint] }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, '.gitignore'), '.holdfast-rulebook.yaml\n');
    stage(root, 'src/a.ts', 'export const a = 1;\n');
    stage(root, '.gitignore', '.holdfast-rulebook.yaml\n');
    const commit = async () => {
      const io = memoryIo({ cwd: root, env: AGENT_SHELL });
      const code = await main(['hook', 'git', '--rulebook', rulebook], io);
      return { code, err: io.err(), out: io.out() };
    };
    const runs = (entries: SessionState['runs']) => saveSessionState(root, 'agent-2', { version: 1, created: [], runs: entries });
    expect((await commit()).out).toMatch(/R7 CHECKED not judged: the commit was made in a shell an agent started .*, but no agent session was seen/);
    const tree = workTreeIdentity(root);
    runs([{ cmd: 'npm run type-check', tree }]);
    const half = await commit();
    expect(half.code).toBe(1);
    expect(half.err).toMatch(/R7 CHECKED: .*the linter has not run/);
    runs([
      { cmd: 'npm run type-check', tree },
      { cmd: 'npm run lint', tree },
    ]);
    expect((await commit()).code).toBe(0);
    stage(root, 'src/a.ts', 'export const a = 2;\n');
    expect((await commit()).err).toMatch(/the type check ran .* but did not pass: it passed on another tree/);
  });

  it('judges R3 with what the agent gate saw: a file that existed before the agent edited it is not a new module', async () => {
    const root = repo();
    writeFileSync(join(root, 'src', 'legacy.ts'), 'export const legacy = 1;\n');
    stage(root, 'src/legacy.ts', 'export const legacy = 2;\n');
    expect((await preCommit(root)).err).toMatch(/R3 TESTS.*src\/legacy\.ts/);
    const options = { env: {}, now: () => new Date(), rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false };
    for (const input of [
      claude.edit(root, 'agent', 'src/legacy.ts', 'legacy = 1', 'legacy = 2'),
      claude.bash(root, 'agent', 'npm test'),
      // The test run's PostToolUse: it passed and changed nothing, so it is bound to the tree it ran on.
      JSON.stringify({ ...JSON.parse(claude.bash(root, 'agent', 'npm test')), hook_event_name: 'PostToolUse', tool_response: { stdout: 'ok', stderr: '' } }),
      claude.bash(root, 'agent', 'git add -A && git commit -m legacy'),
    ]) {
      expect((await answerAgentHook('claude-code', input, options)).stdout).toBe('');
    }
    // The commit's PreToolUse left its call open: the commit is the agent's, judged from its session.
    const result = await preCommit(root);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /R6 ORDER judged from the agent session agent \(the commit was made during a tool call of the agent session agent\): the required commands passed on this tree/,
    );
  });
});

// Issue 42, item 4: the staged files as a checkout of the index gives them back.
describe('holdfast hook git (pre-commit): content as a checkout gives it back', () => {
  const LOGGED = 'export const orders = 1;\nconsole.log(orders);\n';

  function stageBytes(root: string, files: Record<string, string | Buffer>): void {
    for (const [path, bytes] of Object.entries(files)) writeFileSync(join(root, path), bytes);
    execFileSync('git', ['add', ...Object.keys(files)], { cwd: root });
  }

  function linkInIndexOnly(root: string, path: string, target: string): void {
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, input: target }).toString('utf8').trim();
    execFileSync('git', ['update-index', '--add', '--cacheinfo', `120000,${blob},${path}`], { cwd: root });
  }

  it('a file working-tree-encoding=UTF-16LE made git store as noise is judged as the text a checkout writes', async () => {
    const told = repo();
    stageBytes(told, { '.gitattributes': '*.ts working-tree-encoding=UTF-16LE\n', 'src/orders.ts': LOGGED, 'src/orders.test.ts': 'import "./x";\n' });
    // the told control: what git stores holds no console.log a rule could find, and a plain commit lands
    expect(execFileSync('git', ['cat-file', '-p', ':src/orders.ts'], { cwd: told }).toString('utf8')).not.toMatch(/console\.log/);
    execFileSync('git', ['commit', '-q', '-m', 'noise'], { cwd: told });
    execFileSync('git', ['rm', '-q', '--cached', 'src/orders.ts'], { cwd: told });
    execFileSync('git', ['checkout', '-q', 'HEAD', '--', 'src/orders.ts'], { cwd: told });
    expect(readFileSync(join(told, 'src/orders.ts'), 'utf8')).toBe(LOGGED);

    const held = repo();
    stageBytes(held, { '.gitattributes': '*.ts working-tree-encoding=UTF-16LE\n', 'src/orders.ts': LOGGED, 'src/orders.test.ts': 'import "./x";\n' });
    const refused = await preCommit(held);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/R4 NOLOG.*src\/orders\.ts/);
  });

  it('a .gitattributes committed after the file it re-encodes has that file judged as its checkout now gives it back', async () => {
    // the told control: the file goes in as noise while its attributes are only in the work tree, the
    // attributes in a second commit; a checkout of the second gives the console.log back
    const told = repo();
    writeFileSync(join(told, 'src', '.gitattributes'), '*.ts working-tree-encoding=UTF-16LE\n');
    stageBytes(told, { 'src/orders.ts': LOGGED, 'src/orders.test.ts': 'import "./x";\n' });
    execFileSync('git', ['commit', '-q', '-m', 'noise'], { cwd: told });
    execFileSync('git', ['add', 'src/.gitattributes'], { cwd: told });
    execFileSync('git', ['commit', '-q', '-m', 'attributes'], { cwd: told });
    execFileSync('git', ['rm', '-q', '--cached', 'src/orders.ts'], { cwd: told });
    execFileSync('git', ['checkout', '-q', 'HEAD', '--', 'src/orders.ts'], { cwd: told });
    expect(readFileSync(join(told, 'src/orders.ts'), 'utf8')).toBe(LOGGED);

    const held = repo();
    writeFileSync(join(held, 'src', '.gitattributes'), '*.ts working-tree-encoding=UTF-16LE\n');
    stageBytes(held, { 'src/orders.ts': LOGGED, 'src/orders.test.ts': 'import "./x";\n' });
    execFileSync('git', ['commit', '-q', '-m', 'noise'], { cwd: held });
    execFileSync('git', ['add', 'src/.gitattributes'], { cwd: held });
    const refused = await preCommit(held);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/R4 NOLOG.*src\/orders\.ts/);
  });

  it('UTF-16 without a byte-order mark is read as the text it holds', async () => {
    const root = repo();
    stageBytes(root, { 'src/orders.ts': Buffer.from(LOGGED, 'utf16le'), 'src/orders.test.ts': 'import "./x";\n' });
    const refused = await preCommit(root);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/R4 NOLOG.*src\/orders\.ts/);
  });

  it('a working-tree-encoding holdfast does not write is refused where a content rule reaches the file, not passed', async () => {
    const root = repo();
    stageBytes(root, {
      '.gitattributes': '*.ts working-tree-encoding=SHIFT-JIS\n',
      'src/orders.ts': 'export const orders = 1;\n',
      'src/orders.test.ts': 'import "./x";\n',
    });
    const refused = await preCommit(root);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/src\/orders\.ts is checked out as SHIFT-JIS \(its working-tree-encoding\), an encoding holdfast does not read/);
  });

  it('a symbolic link made only in the index, into .git/ or out of the repository, is refused whatever the rulebook', async () => {
    const told = repo();
    linkInIndexOnly(told, 'src/hook', '../.git/hooks/pre-commit');
    execFileSync('git', ['commit', '-q', '-m', 'link'], { cwd: told });
    expect(execFileSync('git', ['ls-tree', 'HEAD', 'src/hook'], { cwd: told }).toString('utf8')).toMatch(/^120000 /);

    const held = repo();
    linkInIndexOnly(held, 'src/hook', '../.git/hooks/pre-commit');
    linkInIndexOnly(held, 'src/passwd', '/etc/passwd');
    linkInIndexOnly(held, 'src/sibling', 'orders.ts');
    const refused = await preCommit(held);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/GATE LINK: src\/hook is a symbolic link to "\.\.\/\.git\/hooks\/pre-commit", which points into \.git\//);
    expect(refused.err).toMatch(/GATE LINK: src\/passwd is a symbolic link to "\/etc\/passwd", outside the repository/);
    expect(refused.err).not.toMatch(/GATE LINK: src\/sibling/);
  });

  it('links chained so that each text alone stays inside src/ but together lead into .git/ are refused', async () => {
    // the told control: git checks them out, and src/config is git's own configuration
    const told = repo();
    linkInIndexOnly(told, 'src/up', '..');
    linkInIndexOnly(told, 'src/config', 'up/.git/config');
    execFileSync('git', ['commit', '-q', '-m', 'links'], { cwd: told });
    execFileSync('git', ['checkout', '-q', 'HEAD', '--', 'src'], { cwd: told });
    expect(realpathSync(join(told, 'src', 'config'))).toBe(realpathSync(join(told, '.git', 'config')));

    const held = repo();
    linkInIndexOnly(held, 'src/up', '..');
    linkInIndexOnly(held, 'src/hook', 'up/.git/hooks/pre-commit');
    mkdirSync(join(held, 'src', 'deep'), { recursive: true });
    linkInIndexOnly(held, 'src/deep/a', '..');
    linkInIndexOnly(held, 'src/deep/b', 'a/../.git/hooks/pre-commit');
    linkInIndexOnly(held, 'src/sibling', 'orders.ts');
    linkInIndexOnly(held, 'src/deep/cousin', '../orders.ts');
    const refused = await preCommit(held);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/GATE LINK: src\/up is a symbolic link to "\.\.", the repository's top folder/);
    expect(refused.err).toMatch(/GATE LINK: src\/deep\/b is a symbolic link to "a\/\.\.\/\.git\/hooks\/pre-commit", which climbs out of a folder it named/);
    expect(refused.err).not.toMatch(/GATE LINK: src\/(sibling|deep\/a|deep\/cousin)/);
  });

  it('a link whose way passes through a link committed before the gate is refused, though its text stays inside src/', async () => {
    const held = repo();
    linkInIndexOnly(held, 'src/up', '..');
    execFileSync('git', ['commit', '-q', '-m', 'a link from before the gate'], { cwd: held });
    linkInIndexOnly(held, 'src/hook', 'up/.git/hooks/pre-commit');
    linkInIndexOnly(held, 'src/sibling', 'orders.ts');
    const refused = await preCommit(held);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/GATE LINK: src\/hook is a symbolic link to "up\/\.git\/hooks\/pre-commit" through src\/up, itself a link/);
    expect(refused.err).not.toMatch(/GATE LINK: src\/sibling/);
  });
});
