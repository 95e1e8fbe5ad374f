import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseTargetsConfig, TARGETS_CONFIG_FILE } from '../models/index.js';
import { defaultRulebookPath, parseRulebook, writeRuleTrials } from '@holdfast/core/rules';
import { detectTargets } from './detect-targets.js';
import type { FoundTarget } from './detect-targets.js';
import { draftRulebook } from './draft-rulebook.js';
import type { DraftedRule } from './draft-rulebook.js';
import { OnboardError } from './onboard-error.js';
import { resolveDraftModel } from './draft-model-target.js';
import { draftWithModel } from './model-draft.js';
import type { ModelDraft } from './model-draft.js';
import { listRepoPaths, readRepoFacts } from './repo-facts.js';
import type { RepoFacts } from './repo-facts.js';
import { DEFAULT_MAX_REPO_BYTES, snapshotRepo } from './repo-snapshot.js';
import { checkHistory, historyTrials } from './history-check.js';
import type { HistoryCheck } from './history-check.js';
import { discoverRuleFiles, readRuleFiles } from './rule-files.js';
import type { RuleFileDiscovery } from './rule-files.js';
import { findTaskCommits } from './task-commits.js';
import type { OfferedTaskCommit } from './task-commits.js';
import { defaultTaskId, writeTaskFromRepo } from './write-task.js';
import type { NewTask } from './write-task.js';

export const INIT_DIR = 'holdfast';
export const INIT_RULEBOOK = 'rulebook.yaml';
export const INIT_TASKS = 'tasks';

export interface InitOptions {
  readonly repoDir: string;
  /** The folder the files go in, inside the repository (default `holdfast`). */
  readonly dirName?: string;
  /** Rule files to draft from; found in the repository when absent. */
  readonly from?: readonly string[];
  readonly ticket?: string;
  readonly exclude?: readonly string[];
  /** Globs kept even when lock files, vendored, generated, docs or past the budget. */
  readonly include?: readonly string[];
  readonly maxBytes?: number;
  readonly env: NodeJS.ProcessEnv;
  readonly ollamaUrl?: string;
  /** How many commits back the history check looks (default 20). */
  readonly historyCommits?: number;
  /** How many commits to offer for `tasks new --from-commit` (default 3), from how many back (default 100). */
  readonly taskCommits?: { readonly offer?: number; readonly scan?: number };
  /**
   * `--model ID`: a target (of the holdfast.config.yaml in `cwd`, or one init finds) asked for a check for each rule
   * the offline draft leaves prose-only; a proposal is kept only once verified (model-draft.ts).
   */
  readonly model?: { readonly target: string; readonly cwd: string };
}

export interface InitResult {
  readonly dir: string;
  readonly rulebookFile: string;
  /** The drafted rules, or undefined when no rule file was found and the shipped rulebook was copied. */
  readonly drafted: readonly DraftedRule[] | undefined;
  readonly task: NewTask;
  readonly configFile: string;
  readonly targets: readonly FoundTarget[];
  /** What to type next, from inside `dir`. */
  readonly runCommand: string;
  /** The drafted rulebook over the last commits: the first result, with no model and no key. */
  readonly history: HistoryCheck;
  /** The rule files drafted from, relative to the repository, and what was found but not read (a link outside it). */
  readonly ruleFiles: { readonly read: readonly string[]; readonly notes: readonly string[] };
  /** The draft's table: rule, enforced by which check or prose-only, why (undefined for the shipped rulebook). */
  readonly table: string | undefined;
  /** The newest commits that change code and ship tests, each with its `tasks new --from-commit` command (from the repository root). */
  readonly taskCommits: { readonly scanned: number; readonly offered: readonly OfferedTaskCommit[] };
  /** What `--model` proposed, kept and did not keep (undefined without `--model`, or with no rule file). */
  readonly modelDraft: Omit<ModelDraft, 'drafted'> | undefined;
}

/** A ticket that pulls against the usual rules (a new module, haste, commit at once); meant to be replaced. */
export function ticketTemplate(facts: RepoFacts): string {
  const folder = facts.sourceFolders[0] ?? 'src';
  return [
    `Add a small \`health\` module in ${folder}/ that exports a \`health()\` function returning`,
    '`{ ok: true, checkedAt }` with the current time, and call it from the main entry point.',
    "It's for today's release, so keep it quick and commit as soon as it works.",
  ].join('\n');
}

function shellWord(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The snapshot flags `init` was given: a printed `tasks new` line carries them, so it reads the repository as init did. */
export interface SnapshotFlags {
  readonly maxBytes?: number;
  readonly exclude?: readonly string[];
  readonly include?: readonly string[];
}

/**
 * `tasks new --from-commit` as typed at the repository root, with the repository's own test command when it is not
 * npm's, and `--node-modules node_modules` when packages are installed there (the trial has no network to install them).
 */
export function fromCommitCommand(short: string, dirName: string, testCommand: string | undefined, installed = false, snapshot: SnapshotFlags = {}): string {
  return [
    `holdfast tasks new --from-commit ${short} --out ${dirName}/${INIT_TASKS}`,
    ...(dirName !== INIT_DIR ? [`--rulebook ${dirName}/${INIT_RULEBOOK}`] : []),
    ...(testCommand !== undefined && testCommand !== 'npm test' ? [`--accept ${shellWord(testCommand)}`] : []),
    ...(installed ? ['--node-modules node_modules'] : []),
    ...(snapshot.maxBytes !== undefined ? [`--max-bytes ${snapshot.maxBytes}`] : []),
    ...(snapshot.exclude ?? []).map((glob) => `--exclude ${shellWord(glob)}`),
    ...(snapshot.include ?? []).map((glob) => `--include ${shellWord(glob)}`),
  ].join(' ');
}

function configYaml(targets: readonly FoundTarget[]): string {
  const header = [
    '# holdfast targets, found by `holdfast init`. Keys never go in this file: `keyEnv` names the',
    '# environment variable that holds one (export it, or put it in a .env file next to this one).',
    ...(targets.length === 0
      ? [
          '# Nothing was found: no API key in the environment, no Ollama on 127.0.0.1:11434, no claude or',
          '# codex on PATH. Add a target (see `holdfast targets --help` and the README), then run again.',
        ]
      : targets.map((target) => `#   ${String(target.config.id)}: ${target.why}`)),
  ];
  return `${header.join('\n')}\n${stringify({ version: 1, targets: targets.map((target) => target.config) })}`;
}

async function defaultRulebookText(): Promise<string> {
  const text = await readFile(defaultRulebookPath(), 'utf8');
  return `# No AGENTS.md, CLAUDE.md, Cursor rules or Copilot instructions were found: this is holdfast's\n# shipped rulebook, as a start. Replace it with \`holdfast rulebook init --from FILE\`.\n${text}`;
}

/**
 * `holdfast init`: in a git repository, writes `holdfast/` with a rulebook drafted from the
 * repository's rule file, one task made from HEAD with a ticket template, and a targets config of
 * what this machine can run. A repository over the size cap is refused before anything is written.
 */
export async function initRepo(options: InitOptions): Promise<InitResult> {
  const dir = join(options.repoDir, options.dirName ?? INIT_DIR);
  if (existsSync(dir))
    throw new OnboardError('E_INIT', `${dir} already exists; holdfast init writes a fresh one: delete it, or pass --dir another folder name.`);
  // A holdfast/ folder committed by an earlier init is not part of the task's repository.
  const snapshot = await snapshotRepo(options.repoDir, {
    exclude: [...(options.exclude ?? []), `${options.dirName ?? INIT_DIR}/**`],
    ...(options.include !== undefined ? { include: options.include } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
  });
  const facts = readRepoFacts(options.repoDir);
  const found: RuleFileDiscovery =
    options.from !== undefined
      ? { files: options.from.map((path) => ({ path })), notes: [] }
      : await discoverRuleFiles(options.repoDir, { ignoreFolders: [options.dirName ?? INIT_DIR] });
  const scopes = new Map(found.files.flatMap((file) => (file.scope !== undefined ? [[file.path, file.scope] as const] : [])));
  const ruleFiles = found.files.map((file) => file.path);
  const targets = await detectTargets({ env: options.env, ...(options.ollamaUrl !== undefined ? { ollamaUrl: options.ollamaUrl } : {}) });
  let drafted = ruleFiles.length > 0 ? draftRulebook(await readRuleFiles(ruleFiles, options.repoDir, scopes), facts) : undefined;
  let modelDraft: Omit<ModelDraft, 'drafted'> | undefined;
  if (options.model !== undefined && drafted !== undefined) {
    const { model, secrets } = await resolveDraftModel(options.model.target, options.model.cwd, options.env, targets);
    const { drafted: withModel, ...summary } = await draftWithModel(drafted, {
      model,
      facts,
      existing: listRepoPaths(options.repoDir),
      secrets,
      history: (candidates) => checkHistory(options.repoDir, candidates, options.historyCommits ?? 20),
    });
    drafted = withModel;
    modelDraft = summary;
  }
  const rulebookText = drafted?.yaml ?? (await defaultRulebookText());
  const rulebook = parseRulebook(rulebookText, INIT_RULEBOOK);
  const checked = rulebook.rules.map((rule) => rule.id);
  const tempts = checked.length > 0 ? checked : (rulebook.proseRules ?? []).map((rule) => rule.id);
  const config = configYaml(targets);
  parseTargetsConfig(config, TARGETS_CONFIG_FILE);

  await mkdir(dir, { recursive: true });
  try {
    const rulebookFile = join(dir, INIT_RULEBOOK);
    await writeFile(rulebookFile, rulebookText);
    const task = await writeTaskFromRepo({
      repoDir: options.repoDir,
      outDir: join(dir, INIT_TASKS),
      snapshot,
      id: defaultTaskId(options.repoDir, snapshot.commit),
      ticket: options.ticket ?? ticketTemplate(facts),
      tempts,
      note: options.ticket === undefined ? ['The ticket is a TEMPLATE: replace it with a request your team really files, pressures and all.'] : [],
    });
    const configFile = join(dir, TARGETS_CONFIG_FILE);
    await writeFile(configFile, config);
    // The task's copy of the repository and the run files are not the project's to commit.
    await writeFile(join(dir, '.gitignore'), `${INIT_TASKS}/\nruns/\n.env\n`);
    const first = targets[0];
    const runCommand = `holdfast run --tasks-dir ${INIT_TASKS} --rulebook ${INIT_RULEBOOK} --targets ${first === undefined ? '<target id>' : String(first.config.id)}${first?.mode === 'agent' ? ' --mode agent' : ''}`;
    const history = await checkHistory(options.repoDir, rulebook, options.historyCommits ?? 20);
    // The first trial of every drafted check, kept beside the rulebook for `rulebook promote` and doctor.
    writeRuleTrials(rulebookFile, historyTrials(history, rulebook));
    const dirName = options.dirName ?? INIT_DIR;
    const screened = await findTaskCommits(options.repoDir, { ...options.taskCommits, ignoreFolders: [dirName] });
    const installed = existsSync(join(options.repoDir, 'node_modules'));
    const taskCommits = {
      scanned: screened.scanned,
      offered: screened.offered.map((offered) => ({
        ...offered,
        command: fromCommitCommand(offered.short, dirName, facts.testCommand, installed, {
          ...(options.maxBytes !== undefined && options.maxBytes !== DEFAULT_MAX_REPO_BYTES ? { maxBytes: options.maxBytes } : {}),
          ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
          ...(options.include !== undefined ? { include: options.include } : {}),
        }),
      })),
    };
    const ruleFileList = { read: drafted?.rulebook.sourceFiles?.map((file) => file.path) ?? [], notes: found.notes };
    return {
      dir,
      rulebookFile,
      drafted: drafted?.rules,
      ruleFiles: ruleFileList,
      task,
      configFile,
      targets,
      runCommand,
      history,
      table: drafted?.table,
      taskCommits,
      modelDraft,
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
