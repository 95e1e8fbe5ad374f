import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { rulesDecidedAt } from '@holdfast/core/rules';
import { InputError } from '@holdfast/core/contract';
import { VERIFY_FILE_LIMIT, rangeCommits, rangeTreeChange, readGit, tryReadGit } from '../git/index.js';
import type { GitReader, RangeCommit } from '../git/index.js';
import { contentFailures } from '../decide/index.js';
import type { CheckActions } from '../decide/index.js';
import { boundNativeMemory } from './native-memory.js';
import { runRequiredOnHead } from './verify-required.js';
import type { RequiredRunResult, RunRequiredSetup } from './verify-required.js';

/** Where `holdfast init` writes the project's rulebook; what verify reads from the base when not told otherwise. */
export const DEFAULT_VERIFY_RULEBOOK = 'holdfast/rulebook.yaml';

/** One rule one change broke, with where, as far as the check said. */
export interface VerifyFinding {
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
  /** The file the broken action wrote or deleted. */
  readonly path: string | undefined;
  /** The line the check named ("at line 3"), when it named one. */
  readonly line: number | undefined;
}

/** A commit of the range, judged on its own change (against its parent; a merge on what it wrote itself). */
interface VerifiedCommit {
  readonly commit: string;
  readonly parents: readonly string[];
  readonly subject: string;
  readonly changes: number;
  readonly findings: readonly VerifyFinding[];
}

/** The verdict on a range: every commit, then the final tree against the merge base. */
export interface VerifyReport {
  readonly base: string;
  readonly head: string;
  /** The commit the final tree was compared with: where head's history left base's. */
  readonly mergeBase: string;
  /** The rulebook file as read from the base commit's tree (never from the work tree). */
  readonly rulebookPath: string;
  readonly rulebook: Rulebook;
  readonly commits: readonly VerifiedCommit[];
  readonly tree: { readonly changes: number; readonly findings: readonly VerifyFinding[] };
  /** Rules a range of commits cannot show (the order of a session's test runs), said so instead of passed. */
  readonly notJudged: readonly string[];
  /** With `runRequired`: each command the commit-order rules require, as run on the head tree (a failure is also a finding of the final tree). */
  readonly required: readonly RequiredRunResult[];
  readonly violations: number;
}

export interface VerifyOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly base: string;
  readonly head: string;
  /** The rulebook's path inside the base commit's tree. */
  readonly rulebookPath: string;
  readonly parseRulebook: (text: string, label: string) => Rulebook;
  readonly checkActions: CheckActions;
  /** `--run-required`: run the commands the order and requires rules name on the head tree, confined. */
  readonly runRequired?: RunRequiredSetup;
  /** The largest file read to judge (default VERIFY_FILE_LIMIT, 8 MiB); a larger one is too large to judge. */
  readonly fileLimit?: number;
  /** Masks every credential in a text that is printed (commit subjects, finding details): `redactSecrets` of the core. */
  readonly redact?: (text: string) => Promise<string>;
}

const LINE = / at line (\d+)\b/;

function findingOf(result: CheckResult, actions: readonly Action[]): VerifyFinding {
  const action = actions[result.actionIndex];
  const line = LINE.exec(result.detail)?.[1];
  return {
    rule: result.rule,
    name: result.name,
    detail: result.detail,
    path: action !== undefined && 'path' in action ? action.path : undefined,
    line: line === undefined ? undefined : Number(line),
  };
}

function mebibytes(size: number): string {
  return `${(size / (1024 * 1024)).toFixed(1)} MiB`;
}

/** How much text one round of checks parses at once: the syntax trees of a round stay in memory until it ends. */
const BATCH_TEXT = 512 * 1024;

/** The action indexes of a change in rounds of about BATCH_TEXT of written text each; one round for most commits. */
function batches(actions: readonly Action[]): Set<number>[] {
  const rounds: Set<number>[] = [new Set()];
  let size = 0;
  for (const [index, action] of actions.entries()) {
    const length = action.type === 'write' ? action.content.length : 0;
    if (size > 0 && size + length > BATCH_TEXT) {
      rounds.push(new Set());
      size = 0;
    }
    (rounds.at(-1) as Set<number>).add(index);
    size += length;
  }
  return rounds;
}

/**
 * One change's findings: every rule but the order rules (contentFailures, as the git hooks judge), a
 * file above the limit refused by each rule that would read it ("too large to judge": a secret rule
 * reads every text file, so it refuses a large one whose first bytes are text), and a committed link
 * that leaves the repository or points into .git/.
 */
async function judged(read: Pick<RangeCommit, 'change' | 'tooLarge'>, rulebook: Rulebook, checkActions: CheckActions, limit: number): Promise<VerifyFinding[]> {
  const { change } = read;
  if (change.actions.length === 0) return [];
  const undecodable = new Map(change.undecodable);
  const reason = (size: number) => `too large to judge (${mebibytes(size)}; verify reads files up to ${mebibytes(limit)})`;
  for (const [path, large] of read.tooLarge) undecodable.set(path, reason(large.size));
  const findings: VerifyFinding[] = [];
  for (const batch of batches(change.actions)) {
    // Every action is in the round (a rule such as R3 reads the whole list); only the batch's carry their
    // text, and only their results are kept: a content rule reads a file alone, so nothing is lost.
    const actions = change.actions.map((action, index) => (batch.has(index) || action.type !== 'write' ? action : { ...action, content: '' }));
    const failures = await contentFailures(checkActions, actions, change.existedBefore, rulebook, undecodable, change.links);
    for (const failure of failures) if (batch.has(failure.actionIndex)) findings.push(findingOf(failure, change.actions));
    await boundNativeMemory();
  }
  for (const [path, large] of read.tooLarge) {
    if (!large.text) continue;
    for (const rule of rulebook.rules) {
      if (rule.check.kind !== 'secret' || findings.some((finding) => finding.rule === rule.id && finding.path === path)) continue;
      findings.push({ rule: rule.id, name: rule.name, detail: `${rule.id} ${rule.name}: ${path} is ${reason(large.size)}.`, path, line: undefined });
    }
  }
  return findings;
}

/** The rulebook a commit message is judged by: its secret rules, each reading every file, so the message too; undefined without one. */
function messageRulebook(rulebook: Rulebook): Rulebook | undefined {
  const rules = rulebook.rules.flatMap((rule) => (rule.check.kind === 'secret' ? [{ ...rule, check: { ...rule.check, files: undefined } }] : []));
  return rules.length === 0 ? undefined : { ...rulebook, rules };
}

const MESSAGE_LABEL = 'COMMIT_EDITMSG';

/** R1 on a commit's message: a key in a message is printed by every `git log`, so it is a finding like a key in a file. */
async function messageFindings(commit: string, message: string, rulebook: Rulebook | undefined, checkActions: CheckActions): Promise<VerifyFinding[]> {
  if (rulebook === undefined || message.trim() === '') return [];
  const label = MESSAGE_LABEL;
  const results = await checkActions([{ type: 'write', path: label, content: message }], [], rulebook);
  return results
    .filter((result) => !result.ok)
    .map((result) => ({
      rule: result.rule,
      name: result.name,
      detail: result.detail.replace(new RegExp(`write to "?${label}"?`), `the message of commit ${commit.slice(0, 12)}`),
      path: undefined,
      line: undefined,
    }));
}

function resolveCommit(reader: GitReader, ref: string, flag: string): string {
  const resolved = tryReadGit(reader, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (resolved === undefined) {
    throw new InputError(
      'E_VERIFY_REF',
      `${flag} ${ref} is not a commit in ${reader.cwd}. In CI, check out with the full history (actions/checkout fetch-depth: 0, GitLab GIT_DEPTH: 0) so the base is there.`,
    );
  }
  return resolved.toString('utf8').trim();
}

/**
 * The rulebook as the base commit has it. Read with git from the base's tree, never from the work
 * tree or the branch under review: a change cannot weaken the rules it is judged by.
 */
function rulebookAtBase(reader: GitReader, base: string, path: string, parse: (text: string, label: string) => Rulebook): Rulebook {
  const text = tryReadGit(reader, ['cat-file', 'blob', `${base}:${path.replace(/^\.\//, '')}`]);
  if (text === undefined) {
    throw new InputError(
      'E_VERIFY_RULEBOOK',
      `the base commit ${base.slice(0, 12)} has no rulebook at ${path}. verify judges with the rules as the base has them, so commit the rulebook ` +
        `to the base branch first (\`holdfast init\` drafts one at ${DEFAULT_VERIFY_RULEBOOK}), or pass --rulebook with the path it has there.`,
    );
  }
  return parse(text.toString('utf8'), `${path} at ${base.slice(0, 12)}`);
}

/**
 * Judges every commit of base..head (oldest first) and the final tree against where head's history
 * left base's, with the rulebook as of the base and the same judgement as the pre-commit gate. The
 * authority layer: it runs where the agent cannot reach, so no local trick (hooks off, `--no-verify`,
 * a rewritten rulebook on the branch) gets a violation past it.
 */
export async function verifyRange(options: VerifyOptions): Promise<VerifyReport> {
  const reader: GitReader = { cwd: options.root, env: options.env };
  const base = resolveCommit(reader, options.base, '--base');
  const head = resolveCommit(reader, options.head, '--head');
  const rulebook = rulebookAtBase(reader, base, options.rulebookPath, options.parseRulebook);
  const mergeBase = tryReadGit(reader, ['merge-base', base, head])?.toString('utf8').trim() ?? base;
  const listed = readGit(reader, ['rev-list', '--reverse', '--topo-order', '--parents', `${base}..${head}`, '--']).toString('utf8');
  const range = listed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [commit, ...parents] = line.trim().split(' ') as [string, ...string[]];
      return { commit, parents };
    });
  const limit = options.fileLimit ?? VERIFY_FILE_LIMIT;
  const redact = options.redact ?? (async (text: string) => text);
  const redacted = async (findings: VerifyFinding[]) => Promise.all(findings.map(async (finding) => ({ ...finding, detail: await redact(finding.detail) })));
  const forMessages = messageRulebook(rulebook);
  const commits: VerifiedCommit[] = [];
  for await (const read of rangeCommits({ root: options.root, fileLimit: limit }, range)) {
    const findings = [
      ...(await messageFindings(read.commit, read.message, forMessages, options.checkActions)),
      ...(await judged(read, rulebook, options.checkActions, limit)),
    ];
    commits.push({
      commit: read.commit,
      parents: read.parents,
      subject: await redact(read.subject),
      changes: read.change.actions.length,
      findings: await redacted(findings),
    });
    await boundNativeMemory();
  }
  const final = await rangeTreeChange({ root: options.root, fileLimit: limit }, mergeBase, head);
  const treeFindings = await redacted(await judged(final, rulebook, options.checkActions, limit));
  const required = options.runRequired === undefined ? [] : await runRequiredOnHead(reader, head, rulebook, options.runRequired);
  for (const run of required) {
    if (run.failure === undefined) continue;
    treeFindings.push({
      rule: run.rule,
      name: run.name,
      detail: `${run.rule} ${run.name}: \`${run.command}\` does not pass on the head tree ${head.slice(0, 12)}: ${run.failure}. Fix what fails before this is merged.`,
      path: undefined,
      line: undefined,
    });
  }
  const commitTimed = rulesDecidedAt(rulebook, 'commit');
  const commitOrder = rulebook.rules.filter((rule) => commitTimed.has(rule.id));
  const notJudged = commitOrder.map((rule) =>
    options.runRequired === undefined
      ? `${rule.id} ${rule.name}: which commands passed before each commit is not in the history (the agent gate and the git hooks judge it); add --run-required to run them on the head tree.`
      : `${rule.id} ${rule.name}: run on the head tree only; whether they passed before each earlier commit is not in the history (the agent gate and the git hooks judge it).`,
  );
  const violations = commits.reduce((sum, each) => sum + each.findings.length, 0) + treeFindings.length;
  return {
    base,
    head,
    mergeBase,
    rulebookPath: options.rulebookPath,
    rulebook,
    commits,
    tree: { changes: final.change.actions.length, findings: treeFindings },
    notJudged,
    required,
    violations,
  };
}
