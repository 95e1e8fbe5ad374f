import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Arm, Rulebook } from '@holdfast/core/contract';
import { AGENTS_FILE } from '../prompt.js';
import { hookEntryPath, installGate } from '@holdfast/gate';
import type { InstallChange } from '@holdfast/gate';
import { harnessOf } from '../../harness/index.js';
import type { HarnessProvider } from '../../harness/index.js';
import { renderRulebook } from '@holdfast/core/rules';
import { BASE_BRANCH, hardenedGit, SandboxError } from '../../sandbox/index.js';
import type { BaseRepo } from '../../sandbox/index.js';

/** The author of the arm's setup commit, and the repository's identity for the agent's own commits (its HOME has none). */
const AGENT_GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'holdfast agent',
  GIT_AUTHOR_EMAIL: 'agent@holdfast.invalid',
  GIT_COMMITTER_NAME: 'holdfast agent',
  GIT_COMMITTER_EMAIL: 'agent@holdfast.invalid',
};

/** Where holdfast keeps the gate's record inside the repository: never part of what the agent changed. */
const HOLDFAST_STATE_DIR = '.holdfast';

/**
 * The files an arm's repository carries the rules in: AGENTS.md, for people and tools that look
 * there, and wherever the harness reads them (its folder says: Claude Code reads CLAUDE.md and leaves
 * AGENTS.md unread, so the rules reach it once; a generic agent may read either). Each holds the same bytes.
 */
export function rulesFilesFor(harness: HarnessProvider): readonly string[] {
  return [...new Set([AGENTS_FILE, ...harnessOf(harness).rulesFiles])];
}

/**
 * One arm's repository, ready for a harness: the task's files, the rules where the harness reads them (rulesFilesFor), holdfast's hook (observe
 * in the told arm, enforce in the held arm) committed as `setupCommit`, the base every figure is
 * measured from. The git dir sits beside the work tree, reached through a `.git` file, so the agent
 * uses git as in any repository.
 */
export interface ArmRepo {
  readonly dir: string;
  readonly workDir: string;
  readonly gitDir: string;
  /** The harness's HOME (nothing of the host's) and the commands' temp folder under it. */
  readonly homeDir: string;
  readonly setupCommit: string;
  /** The rulebook file the hook reads, outside the work tree. */
  readonly rulebookFile: string;
  /** What the gate installation wrote, as `holdfast install` reports it. */
  readonly installed: readonly InstallChange[];
}

export interface ArmRepoOptions {
  readonly base: BaseRepo;
  readonly dir: string;
  readonly arm: Arm;
  readonly rulebook: Rulebook;
  readonly harness: HarnessProvider;
}

/**
 * The gate as `holdfast install` sets it up, for the harness that plays the arm. Told: the agent's
 * hook in observe mode (`--observe` in the installed command: it judges and records every call, never
 * blocks), no pre-commit hook. Held: the agent's hook enforcing, and the git pre-commit hook, which
 * holds whatever tool commits. A generic agent has no hook protocol: its held arm has the pre-commit
 * hook, its told arm nothing.
 */
function installArmGate(repo: { workDir: string }, options: ArmRepoOptions, rulebookFile: string): InstallChange[] {
  // The hook runs this node on the gate's own bundled entry.
  const command = {
    node: process.execPath,
    entry: hookEntryPath(),
    rulebook: rulebookFile,
    observe: options.arm === 'told',
  };
  const changes: InstallChange[] = [];
  if (options.harness !== 'agent' && harnessOf(options.harness).hookSettings !== undefined) changes.push(installGate(options.harness, repo.workDir, command));
  // The pre-commit hook never observes: it is the held arm's.
  const enforcing = { ...command, observe: false };
  if (options.arm === 'held') changes.push(installGate('git', repo.workDir, enforcing));
  return changes;
}

/** Runs git outside any repository's reach: no user or system config, no terminal prompt, no hooks. */
function plainGit(args: readonly string[], cwd: string): Promise<string> {
  return hardenedGit(args, cwd, AGENT_GIT_IDENTITY, (why, cause) => new SandboxError('E_SANDBOX_GIT', why, { cause }));
}

/**
 * Builds the arm's repository: a clone of the task's base repository that borrows its objects, with
 * its own `.git` as in any project, so the agent, the hooks and `holdfast install` meet the layout
 * they meet at a person's desk.
 */
export async function prepareArmRepo(options: ArmRepoOptions): Promise<ArmRepo> {
  mkdirSync(options.dir, { recursive: true });
  const dir = realpathSync(options.dir);
  const workDir = join(dir, 'work');
  const homeDir = join(dir, 'home');
  mkdirSync(join(homeDir, 'tmp'), { recursive: true });
  await plainGit(['clone', '--quiet', '--shared', '--no-checkout', options.base.gitDir, workDir], dir);
  await plainGit(['checkout', '--quiet', '-B', BASE_BRANCH, options.base.commit], workDir);
  const gitDir = join(workDir, '.git');
  await plainGit(['config', 'user.name', AGENT_GIT_IDENTITY.GIT_AUTHOR_NAME], workDir);
  await plainGit(['config', 'user.email', AGENT_GIT_IDENTITY.GIT_AUTHOR_EMAIL], workDir);
  await plainGit(['remote', 'remove', 'origin'], workDir);
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'info', 'exclude'), `/${HOLDFAST_STATE_DIR}/\n`);
  const rulebookFile = join(dir, 'rulebook.json');
  // JSON is YAML: the hook's rulebook loader reads it as the run's rulebook, defaults and all.
  writeFileSync(rulebookFile, `${JSON.stringify(options.rulebook, null, 2)}\n`);
  const rules = renderRulebook(options.rulebook);
  const files = rulesFilesFor(options.harness);
  for (const file of files) writeFileSync(join(workDir, file), rules);
  const installed = installArmGate({ workDir }, options, rulebookFile);
  await plainGit(['add', '--all'], workDir);
  await plainGit(['commit', '--quiet', '--no-verify', '-m', `holdfast: ${files.join(', ')} and the gate for the ${options.arm} arm`], workDir);
  const setupCommit = (await plainGit(['rev-parse', 'HEAD'], workDir)).trim();
  return { dir, workDir, gitDir, homeDir, setupCommit, rulebookFile, installed };
}
