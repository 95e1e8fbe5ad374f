import type { Rulebook } from '@holdfast/core/contract';
import { enforcementOf, rulesDecidedAt, rulesNotInHistory, withCustomLauncher } from '@holdfast/core/rules';
import { InputError } from '@holdfast/core/contract';
import { VERIFY_FILE_LIMIT, rangeCommits, rangeTreeChange, readGit, tryReadGit } from '../git/index.js';
import type { GitReader } from '../git/index.js';
import type { CheckActions } from '../decide/index.js';
import { baseRuleCode } from './base-rule-code.js';
import { ChangeJudge } from './judge-change.js';
import type { VerifyFinding } from './judge-change.js';

export type { VerifyFinding } from './judge-change.js';
import { runRequiredOnHead } from './verify-required.js';
import type { RequiredRunResult, RunRequiredSetup } from './verify-required.js';

/** Where `holdfast init` writes the project's rulebook; what verify reads from the base when not told otherwise. */
export const DEFAULT_VERIFY_RULEBOOK = 'holdfast/rulebook.yaml';

/** A commit of the range, judged on its own change (against its parent; a merge on what it wrote itself). */
interface VerifiedCommit {
  readonly commit: string;
  readonly parents: readonly string[];
  readonly subject: string;
  readonly changes: number;
  /** The findings listed (see FINDINGS_PER_RULE); `unlisted` counts the rest. */
  readonly findings: readonly VerifyFinding[];
  readonly unlisted: number;
}

/** Findings of a rule not listed because it broke more than FINDINGS_PER_RULE times: counted, not kept. */
interface UnlistedFindings {
  readonly rule: string;
  readonly name: string;
  readonly count: number;
}

/**
 * The findings of one rule a report lists; the rest are counted (each commit's count and the rule's).
 * What a range holds is kept to the commits and this many findings a rule, however long the range is
 * and however many files break a rule: a report of thousands of identical lines helps no one and would
 * make verify's memory grow with the range.
 */
export const FINDINGS_PER_RULE = 1000;

/** The verdict on a range: every commit, then the final tree against the merge base. */
export interface VerifyReport {
  readonly base: string;
  readonly head: string;
  /** The commit the final tree was compared with: where head's history left base's. */
  readonly mergeBase: string;
  /** The rulebook file as read from the base commit's tree (never from the work tree). */
  readonly rulebookPath: string;
  readonly rulebook: Rulebook;
  /** The base's files its custom checks ran from (read from the base commit, run confined); empty without a custom check. */
  readonly ruleCode: readonly string[];
  readonly commits: readonly VerifiedCommit[];
  readonly tree: { readonly changes: number; readonly findings: readonly VerifyFinding[]; readonly unlisted: number };
  /** Per rule, the findings beyond FINDINGS_PER_RULE: counted in `violations`, not listed. */
  readonly unlisted: readonly UnlistedFindings[];
  /** Rules a range of commits cannot show (the order of a session's test runs), said so instead of passed. */
  readonly notJudged: readonly string[];
  /** With `runRequired`: each command the commit-order rules require, as run on the head tree (a failure is also a finding of the final tree). */
  readonly required: readonly RequiredRunResult[];
  /** Findings of rules that block (and of the gate's own checks): any one fails the run. */
  readonly violations: number;
  /** Findings of rules at `enforcement: warn`: reported, never failing the run. */
  readonly warnings: number;
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
      level: enforcementOf(rulebook, result.rule),
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
  // The base's rule code, never the work tree's: a custom check's module is read from the base commit
  // into a folder verify owns and run there inside bubblewrap (base-rule-code.ts).
  const code = baseRuleCode(reader, base, rulebook);
  try {
    return await judgeRange(options, reader, base, head, code === undefined ? rulebook : withCustomLauncher(rulebook, code.launcher), code?.files ?? []);
  } finally {
    code?.remove();
  }
}

async function judgeRange(
  options: VerifyOptions,
  reader: GitReader,
  base: string,
  head: string,
  rulebook: Rulebook,
  ruleCode: readonly string[],
): Promise<VerifyReport> {
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
  const listedOf = new Map<string, number>();
  const unlisted = new Map<string, UnlistedFindings>();
  let violations = 0;
  let warnings = 0;
  /** The findings to list, masked; the others counted (a rule at `enforcement: warn` as a warning, the rest as violations). */
  const listOf = async (findings: VerifyFinding[]): Promise<{ findings: VerifyFinding[]; unlisted: number }> => {
    for (const finding of findings) {
      if (finding.level === 'warn') warnings += 1;
      else violations += 1;
    }
    const kept = findings.filter((finding) => {
      const count = (listedOf.get(finding.rule) ?? 0) + 1;
      listedOf.set(finding.rule, count);
      if (count <= FINDINGS_PER_RULE) return true;
      const before = unlisted.get(finding.rule);
      unlisted.set(finding.rule, { rule: finding.rule, name: finding.name, count: (before?.count ?? 0) + 1 });
      return false;
    });
    return {
      findings: await Promise.all(kept.map(async (finding) => ({ ...finding, detail: await redact(finding.detail) }))),
      unlisted: findings.length - kept.length,
    };
  };
  const forMessages = messageRulebook(rulebook);
  const judge = new ChangeJudge(rulebook, options.checkActions, limit);
  const commits: VerifiedCommit[] = [];
  for await (const read of rangeCommits({ root: options.root, fileLimit: limit }, range)) {
    const findings = [...(await messageFindings(read.commit, read.message, forMessages, options.checkActions)), ...(await judge.judge(read))];
    commits.push({
      commit: read.commit,
      parents: read.parents,
      subject: await redact(read.subject),
      changes: read.files.length,
      ...(await listOf(findings)),
    });
  }
  const final = await rangeTreeChange({ root: options.root, fileLimit: limit }, mergeBase, head, async (change) => ({
    changes: change.files.length,
    ...(await listOf(await judge.judge(change))),
  }));
  const treeFindings = final.findings;
  const required = options.runRequired === undefined ? [] : await runRequiredOnHead(reader, head, rulebook, options.runRequired);
  for (const run of required) {
    if (run.failure === undefined) continue;
    if (enforcementOf(rulebook, run.rule) === 'warn') warnings += 1;
    else violations += 1;
    treeFindings.push({
      rule: run.rule,
      name: run.name,
      detail: `${run.rule} ${run.name}: \`${run.command}\` does not pass on the head tree ${head.slice(0, 12)}: ${run.failure}. Fix what fails before this is merged.`,
      path: undefined,
      line: undefined,
      level: enforcementOf(rulebook, run.rule),
    });
  }
  const commitTimed = rulesDecidedAt(rulebook, 'commit');
  const notJudged = rulesNotInHistory(rulebook).map(({ rule, why }) =>
    !commitTimed.has(rule.id)
      ? `${rule.id} ${rule.name}: ${why} (the agent gate judges each command as it is run).`
      : options.runRequired === undefined
        ? `${rule.id} ${rule.name}: which commands passed before each commit is not in the history (the agent gate and the git hooks judge it); add --run-required to run them on the head tree.`
        : `${rule.id} ${rule.name}: run on the head tree only; whether they passed before each earlier commit is not in the history (the agent gate and the git hooks judge it).`,
  );
  return {
    base,
    head,
    mergeBase,
    rulebookPath: options.rulebookPath,
    rulebook,
    ruleCode,
    commits,
    tree: { changes: final.changes, findings: treeFindings, unlisted: final.unlisted },
    unlisted: [...unlisted.values()],
    notJudged,
    required,
    violations,
    warnings,
  };
}
