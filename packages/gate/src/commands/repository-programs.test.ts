import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { checkActions, parseRulebook } from '@holdfast/core/rules';
import { askBroker } from '../exec/gate-broker-client.js';
import { startGateBroker } from '../exec/gate-broker.js';
import { brokerJudging } from '../exec/exec-plan.js';
import { gateMain as main } from '../test-support/gate-main.js';
import { claude, claudeBashPassed } from '../test-support/payloads.js';
import { git, gitRun, gitTestEnv, projectRepo, writeFiles } from '../test-support/git-repo.js';
import { verifyRange } from '../verify/verify.js';

// Issue 42, item 2: git run by holdfast runs nothing the repository names. The fixture repository's
// configuration, attributes and layout name programs that write a marker file; every process of the
// gate (the agent hook, the git hooks, the broker, verify) works in it, and no marker ever appears.
// Each fixture's told control (the same repository, a plain `git`) does write the marker, so the
// fixture is live and the test can fail.

/** A configuration whose every program-running key writes a marker named after it into `markers`. */
function hostileConfig(markers: string): string {
  const mark = (name: string, then = '') => `"touch ${markers}/${name}${then}"`;
  return [
    '[core]',
    `\tfsmonitor = ${mark('fsmonitor', '; false')}`,
    `\thooksPath = ${join(markers, '..', 'evil-hooks')}`,
    `\tpager = ${mark('pager', '; cat')}`,
    `\tsshCommand = ${mark('ssh')}`,
    `\teditor = ${mark('editor')}`,
    '[filter "evil"]',
    `\tclean = ${mark('clean', '; cat')}`,
    `\tsmudge = ${mark('smudge', '; cat')}`,
    `\tprocess = ${mark('process')}`,
    '\trequired = true',
    '[diff "evil"]',
    `\ttextconv = ${mark('textconv', '; cat')}`,
    `\tcommand = ${mark('diff-command')}`,
    '[diff]',
    `\texternal = ${mark('external-diff')}`,
    '[log]',
    '\tshowSignature = true',
    '[gpg]',
    `\tprogram = ${mark('gpg')}`,
    '',
  ].join('\n');
}

interface Fixture {
  readonly root: string;
  readonly markers: string;
  /** Whether holdfast must refuse to run git here (a layout it does not follow) rather than work in it. */
  readonly refused: boolean;
}

function markerFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-markers-'));
  const markers = join(folder, 'markers');
  mkdirSync(markers);
  mkdirSync(join(folder, 'evil-hooks'));
  for (const hook of ['pre-commit', 'reference-transaction', 'post-checkout', 'post-index-change', 'fsmonitor-watchman']) {
    writeFileSync(join(folder, 'evil-hooks', hook), `#!/bin/sh\ntouch ${markers}/hook-${hook}\n`, { mode: 0o755 });
  }
  return markers;
}

/** A project with a staged change whose `.gitattributes` sends every file through the `evil` filter and diff driver. */
function stagedProject(): string {
  const root = projectRepo('holdfast-hostile-');
  writeFiles(root, { '.gitattributes': '* filter=evil diff=evil\n', 'src/orders.ts': 'export const orders = 2;\n' });
  git(root, 'add', '-A');
  return root;
}

const FIXTURES: Record<string, () => Fixture> = {
  'the repository config names programs': () => {
    const markers = markerFolder();
    const root = stagedProject();
    writeFileSync(join(root, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${hostileConfig(markers)}`);
    return { root, markers, refused: false };
  },
  'a commondir moves config and hooks to another repository': () => {
    const markers = markerFolder();
    const root = stagedProject();
    const other = mkdtempSync(join(tmpdir(), 'holdfast-commondir-'));
    git(other, 'init', '-q', '--bare');
    writeFileSync(join(other, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${hostileConfig(markers)}`);
    writeFileSync(join(root, '.git', 'commondir'), `${other}\n`);
    return { root, markers, refused: true };
  },
  'the config includes a file that names programs': () => {
    const markers = markerFolder();
    const root = stagedProject();
    writeFileSync(join(root, 'extra.cfg'), hostileConfig(markers));
    git(root, 'config', 'include.path', join(root, 'extra.cfg'));
    return { root, markers, refused: true };
  },
  'a .git file points at a git folder that is not this work tree': () => {
    const markers = markerFolder();
    const root = stagedProject();
    // The project's history copied to a folder elsewhere, whose config names the programs and no work tree.
    const moved = join(mkdtempSync(join(tmpdir(), 'holdfast-gitdir-')), 'moved.git');
    git(tmpdir(), 'clone', '-q', '--bare', root, moved);
    writeFileSync(join(moved, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${hostileConfig(markers)}`);
    rmSync(join(root, '.git'), { recursive: true, force: true });
    writeFileSync(join(root, '.git'), `gitdir: ${moved}\n`);
    return { root, markers, refused: true };
  },
};

function markersOf(fixture: Fixture): string[] {
  return readdirSync(fixture.markers).sort();
}

async function hook(fixture: Fixture, args: string[], stdin: string) {
  const io = memoryIo({ cwd: fixture.root, input: stdin, env: { ...gitTestEnv(), HOME: fixture.root } });
  const code = await main(['hook', ...args, '--rulebook', 'holdfast/rulebook.yaml'], io);
  return { code, err: `${io.out()}${io.err()}` };
}

describe('git run by holdfast runs nothing the repository names (issue 42, item 2)', () => {
  for (const [name, make] of Object.entries(FIXTURES)) {
    it(`${name}: the plain git of the told control writes a marker`, () => {
      const fixture = make();
      gitRun(fixture.root, ['status']);
      gitRun(fixture.root, ['diff', 'HEAD']);
      expect(markersOf(fixture).length).toBeGreaterThan(0);
    });

    it(`${name}: the agent hook, the git hooks, the broker and verify write none`, async () => {
      const fixture = make();
      const session = 's-hostile';
      const decisions = [
        // A shell call: its PreToolUse snapshots the tree, its PostToolUse judges what it changed (both run git).
        await hook(fixture, ['claude-code'], claude.bash(fixture.root, session, 'git status')),
        await hook(fixture, ['claude-code'], claudeBashPassed(fixture.root, session, 'git status')),
        await hook(fixture, ['git'], ''),
        await hook(fixture, ['git', 'reference-transaction'], `${'0'.repeat(40)} ${'1'.repeat(40)} refs/heads/main\n`),
      ];
      const socketFolder = mkdtempSync(join(tmpdir(), 'holdfast-broker-'));
      const broker = await startGateBroker({
        socketPath: join(socketFolder, 'gate.sock'),
        project: fixture.root,
        judging: brokerJudging(fixture.root, fixture.root, gitTestEnv()),
        decide: async (request) => {
          const io = memoryIo({ cwd: request.cwd, input: request.stdin, env: { ...gitTestEnv(), HOME: fixture.root } });
          const code = await main(['hook', ...request.argv], io);
          return { stdout: io.out(), stderr: io.err(), exitCode: code };
        },
      });
      try {
        const asked = await askBroker(
          join(socketFolder, 'gate.sock'),
          { argv: ['claude-code'], cwd: fixture.root, stdin: claude.bash(fixture.root, session, 'git status') },
          600_000,
        );
        decisions.push({ code: asked.exitCode, err: `${asked.stdout}${asked.stderr}` });
      } finally {
        await broker.close();
      }
      try {
        await verifyRange({
          root: fixture.root,
          env: gitTestEnv(),
          base: 'HEAD',
          head: 'HEAD',
          rulebookPath: 'holdfast/rulebook.yaml',
          parseRulebook,
          checkActions,
        });
      } catch {
        // a layout holdfast does not follow is a refusal, not a pass: asserted on the hooks above
      }
      expect(markersOf(fixture)).toEqual([]);
      if (fixture.refused) {
        // Every process of the gate refuses there, naming the layout it does not follow.
        // (Claude Code's refusal is exit 0 with a "deny" on stdout; git's is a non-zero exit.)
        for (const decision of decisions) {
          expect(decision.code !== 0 || /"permissionDecision":"deny"|"decision":"block"/.test(decision.err)).toBe(true);
        }
        // The PostToolUse after a refused PreToolUse finds no snapshot and blocks for that; every other names the layout.
        expect(decisions.filter((decision) => !/holdfast does not run git in this repository/.test(decision.err)).map((decision) => decision.err)).toEqual([
          expect.stringMatching(/could not check what this command changed/),
        ]);
      } else {
        // The gate worked here: the shell call passed both sides, the pre-commit hook judged the staged
        // change (.gitattributes is outside R2's paths), the broker answered.
        expect(decisions.map((decision) => decision.err)).toEqual(['', '', expect.stringMatching(/R2 SCOPE: write to "\.gitattributes"/), '', '']);
      }
    });
  }
});
