import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Arm, Rulebook } from '../contract/index.js';
import { AGENTS_FILE } from '../experiment/prompt.js';
import { installGate, isHoldfastCommand } from '../gate/index.js';
import type { InstallChange } from '../gate/index.js';
import type { HarnessTarget } from '../models/index.js';
import { renderRulebook } from '../rules/index.js';
import { detachSandbox, materialiseSandbox } from '../sandbox/index.js';
import type { BaseRepo } from '../sandbox/index.js';
import { git } from '../sandbox/git.js';

/** The committer of the arm's setup commit and of everything the agent commits (its HOME has no git identity). */
const AGENT_IDENTITY = { name: 'holdfast agent', email: 'agent@holdfast.invalid' };

/** Where holdfast keeps the gate's record inside the repository: never part of what the agent changed. */
export const HOLDFAST_STATE_DIR = '.holdfast';

/**
 * One arm's repository, ready for a harness: the task's files, AGENTS.md, holdfast's hook (observe
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
  readonly harness: HarnessTarget['provider'];
  /** The node binary and holdfast's bin script the hook runs (default: this process, this installation). */
  readonly node?: string;
  readonly bin?: string;
}

export function holdfastBin(): string {
  return fileURLToPath(new URL('../../bin/holdfast.js', import.meta.url));
}

/** The bundled hook entry (`npm run build` writes it), which the fail-closed hook command runs. */
export function holdfastHookEntry(): string {
  return fileURLToPath(new URL('../../dist/hook/hook.mjs', import.meta.url));
}

/**
 * The gate as `holdfast install` sets it up, for the harness that plays the arm. Told: the agent's
 * hook in observe mode (it judges and records every call, never blocks), no pre-commit hook. Held:
 * the agent's hook enforcing, and the git pre-commit hook, which holds whatever tool commits.
 * A generic agent has no hook protocol: its held arm has the pre-commit hook, its told arm nothing.
 */
function installArmGate(repo: { workDir: string }, options: ArmRepoOptions, rulebookFile: string): InstallChange[] {
  // Both ways the gate's installer has named the hook: holdfast's bin script, or its bundled hook entry.
  const command = { node: options.node ?? process.execPath, bin: options.bin ?? holdfastBin(), entry: holdfastHookEntry(), rulebook: rulebookFile };
  const changes: InstallChange[] = [];
  if (options.harness !== 'agent') {
    changes.push(installGate(options.harness, repo.workDir, command));
    if (options.arm === 'told') observeOnly(join(repo.workDir, options.harness === 'claude-code' ? '.claude/settings.json' : '.codex/hooks.json'));
  }
  if (options.arm === 'held') changes.push(installGate('git', repo.workDir, command));
  return changes;
}

/**
 * `--observe` right after the agent's name, in either form the installed command takes:
 * `… hook claude-code --rulebook F` or the fail-closed script's `… "$holdfast_entry" "claude-code" …`.
 */
export function withObserve(command: string): string {
  return command.replace(/(\bhook\s+(?:claude-code|codex)\b)|("(?:claude-code|codex)")/, (_match, bare: string | undefined, quoted: string | undefined) =>
    bare !== undefined ? `${bare} --observe` : `${quoted!} "--observe"`,
  );
}

/**
 * Turns the installed hooks into observers: `holdfast hook <agent> --observe` judges and records
 * every call with every rule result and never blocks. installGate has no observe option yet, so
 * the flag is added to holdfast's own entries in the written configuration.
 */
function observeOnly(configFile: string): void {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { hooks?: Record<string, { hooks?: { command?: unknown }[] }[]> };
  for (const groups of Object.values(config.hooks ?? {})) {
    for (const group of groups) {
      for (const hook of group.hooks ?? []) {
        if (isHoldfastCommand(hook.command) && typeof hook.command === 'string' && !hook.command.includes('--observe')) hook.command = withObserve(hook.command);
      }
    }
  }
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
}

/** Builds the arm's repository from the task's base (hard links, borrowed objects), then gives it its own copy of every file. */
export async function prepareArmRepo(options: ArmRepoOptions): Promise<ArmRepo> {
  const sandbox = materialiseSandbox(options.base, options.dir);
  // A harness writes files in place: nothing may still be shared with the base.
  detachSandbox(sandbox);
  const location = { gitDir: sandbox.gitDir, workTree: sandbox.workDir };
  writeFileSync(join(sandbox.workDir, '.git'), `gitdir: ${sandbox.gitDir}\n`);
  mkdirSync(join(sandbox.gitDir, 'info'), { recursive: true });
  writeFileSync(join(sandbox.gitDir, 'info', 'exclude'), `/${HOLDFAST_STATE_DIR}/\n`);
  await git(location, ['config', 'user.name', AGENT_IDENTITY.name]);
  await git(location, ['config', 'user.email', AGENT_IDENTITY.email]);
  mkdirSync(join(sandbox.homeDir, 'tmp'), { recursive: true });
  const rulebookFile = join(sandbox.dir, 'rulebook.json');
  // JSON is YAML: the hook's rulebook loader reads it as the run's rulebook, defaults and all.
  writeFileSync(rulebookFile, `${JSON.stringify(options.rulebook, null, 2)}\n`);
  writeFileSync(join(sandbox.workDir, AGENTS_FILE), renderRulebook(options.rulebook));
  const installed = installArmGate(sandbox, options, rulebookFile);
  await git(location, ['add', '--all']);
  await git(location, ['commit', '--quiet', '--no-verify', '-m', `holdfast: ${AGENTS_FILE} and the gate for the ${options.arm} arm`]);
  const setupCommit = (await git(location, ['rev-parse', 'HEAD'])).trim();
  return { dir: sandbox.dir, workDir: sandbox.workDir, gitDir: sandbox.gitDir, homeDir: sandbox.homeDir, setupCommit, rulebookFile, installed };
}
