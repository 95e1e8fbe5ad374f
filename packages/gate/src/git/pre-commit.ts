import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { byEnforcement, rulesDecidedAt } from '@holdfast/core/rules';
import { appendAudit, auditActionText } from '../decide/index.js';
import { contentFailures } from '../decide/index.js';
import { internalErrorReason } from '../decide/index.js';
import type { HookAnswer } from '../decide/index.js';
import { replayedRound } from '../decide/index.js';
import { stagedTreeIdentity } from '../state/index.js';
import type { CheckActions } from '../decide/index.js';
import { nulPaths, runGit } from '../io/index.js';
import { putBackRefsBetweenCalls, refPutBackLines } from '../put-back/index.js';
import { rerunRequiredOnTree } from '../exec/index.js';
import type { RunOnCommitTree } from '../exec/index.js';
import type { SessionState } from '../state/index.js';
import { checkoutActions, rawEntries } from './commit-change.js';
import type { TreeChange } from './commit-change.js';
import { commitOrigin } from './commit-origin.js';
import { withoutInstallFiles } from './install-files.js';
import { finishUnfinishedAgentCalls } from './unfinished-agent-calls.js';
import type { InstallOutput } from './install-files.js';
import type { CommitOrigin } from './commit-origin.js';

/**
 * git's output in `root` (`input` is its stdin), or a throw naming the failed call. `env` is the
 * hook's environment when it is not this process's (the exec broker): it carries the index git
 * handed the hook (GIT_INDEX_FILE), which `git commit -a` or `git commit FILE` make a temporary one.
 */
export function gitOutput(root: string, args: string[], input?: string, env?: NodeJS.ProcessEnv): Buffer {
  // Only the index git handed the hook is taken from its environment; the repository is the one in `root`.
  return runGit(args, {
    cwd: root,
    ...(env?.GIT_INDEX_FILE !== undefined && env.GIT_INDEX_FILE !== '' ? { indexFile: env.GIT_INDEX_FILE } : {}),
    ...(input !== undefined ? { input } : {}),
  });
}

/**
 * The staged changes as actions, each file read as a checkout of the index would write it (the
 * index's own `.gitattributes` applied by holdfast: a file `working-tree-encoding` made git store
 * re-encoded is judged as the text a checkout gives back), with the staged files whose bytes are not
 * text and the staged links that leave the repository or point into .git/ (a link made only in the
 * index, `git update-index --cacheinfo 120000,…`, included: its mode is read from the index).
 */
function stagedFiles(root: string, env?: NodeJS.ProcessEnv): Pick<TreeChange, 'actions' | 'undecodable' | 'links'> {
  const entries = rawEntries(gitOutput(root, ['diff', '--cached', '--raw', '--no-renames', '--no-abbrev', '-z'], undefined, env));
  const indexFile = env?.GIT_INDEX_FILE;
  // Against HEAD, as `git diff --cached` compares (before a first commit every file is staged, so none is left as it was).
  return checkoutActions({ cwd: root, ...(indexFile !== undefined && indexFile !== '' ? { indexFile } : {}) }, 'HEAD', '', entries);
}

/** Files in the last commit: what existed before this commit, so an added file is a new module. */
export function committedPaths(root: string): string[] {
  try {
    gitOutput(root, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  } catch {
    return [];
  }
  return nulPaths(gitOutput(root, ['ls-tree', '-r', '--name-only', '-z', 'HEAD']));
}

export interface PreCommitOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly rulebook: () => Promise<Rulebook>;
  readonly checkActions: () => Promise<CheckActions>;
  /** The rulebook file the hook was installed with (absolute, or from the root), protected like the agent hooks protect it; the shipped one when absent. */
  readonly rulebookFile?: string;
  /** Under holdfast exec (the broker): runs a required command on the committed tree when no session recorded a pass. */
  readonly runOnCommitTree?: RunOnCommitTree;
  /** What `holdfast install` of this holdfast writes (install-files.ts): a staged file byte-identical to it is the install, not judged. */
  readonly installOutput?: InstallOutput;
}

function gitBytes(root: string, spec: string, env?: NodeJS.ProcessEnv): Buffer | undefined {
  try {
    return gitOutput(root, ['cat-file', 'blob', spec], undefined, env);
  } catch {
    return undefined;
  }
}

type OrderVerdict =
  { readonly judged: false; readonly note: string } | { readonly judged: true; readonly failures: readonly CheckResult[]; readonly note: string };

/**
 * The order and requires rules (R6, "lint and type-check before committing"), for a commit an agent's
 * tool call made (commit-origin.ts): the record of each session under way says which required
 * commands passed, and on which tree (tree-identity.ts). A run counts only when it passed on exactly
 * the tree being committed, so a file changed after the run, or one the run saw that the commit
 * leaves out, refuses the commit until it runs again; with several sessions under way, each must
 * hold. A person's commit, made outside any agent call, is not judged by them (the note says so).
 * Without any session record the order cannot be known from a staged tree, and the note says it
 * was not judged. Shared with the reference-transaction hook.
 */
export async function checkCommitOrder(
  rulebook: Rulebook,
  origin: CommitOrigin,
  checkActions: CheckActions,
  committedTree: () => string,
  rerun?: { readonly root: string; readonly tree: () => string; readonly run: RunOnCommitTree },
): Promise<OrderVerdict | undefined> {
  const commitTimed = rulesDecidedAt(rulebook, 'commit');
  const rules = rulebook.rules.filter((rule) => commitTimed.has(rule.id));
  if (rules.length === 0) return undefined;
  const labels = rules.map((rule) => `${rule.id} ${rule.name}`).join(', ');
  if (origin.by === 'person') {
    return {
      judged: false,
      note: `${labels} not judged: this commit was made outside any agent tool call (a person's), so only the content rules judge it.`,
    };
  }
  if (origin.sessions.length === 0 && rerun !== undefined) {
    const tree = rerun.tree();
    const failures = await rerunRequiredOnTree({ ...rulebook, rules }, rerun.root, tree, rerun.run);
    const note = `${labels}: no agent session was seen by the gate here, so under holdfast exec it ran the required commands itself on the committed tree${failures.length === 0 ? ' and they passed' : ''}.`;
    return { judged: true, failures, note };
  }
  if (origin.sessions.length === 0) {
    return {
      judged: false,
      note: `${labels} not judged: the commit was ${origin.why}, but no agent session was seen by the gate here, and which commands passed on this tree cannot be read from staged changes.`,
    };
  }
  const failures: CheckResult[] = [];
  const tree = committedTree();
  for (const latest of origin.sessions) {
    const replay = replayedRound(latest.state, tree);
    const actions: Action[] = [...replay.actions, { type: 'commit', message: 'the commit being made' }];
    const results = await checkActions(actions, [], { ...rulebook, rules }, replay.observed);
    failures.push(
      ...results
        .filter((result) => !result.ok && result.actionIndex === actions.length - 1)
        .map((result) => ({ ...result, actionIndex: 0, detail: `${result.rule} ${result.name}: ${result.detail}` })),
    );
  }
  const warnings = origin.sessions.flatMap((latest) => (latest.warning === undefined ? [] : [latest.warning]));
  const from = `judged from the agent session ${origin.sessions.map((latest) => latest.session).join(', ')} (the commit was ${origin.why}${warnings.length === 0 ? '' : `; ${warnings.join('; ')}`})`;
  return { judged: true, failures, note: failures.length === 0 ? `${labels} ${from}: the required commands passed on this tree.` : `${labels} ${from}.` };
}

/**
 * R3 with the session's knowledge: a file the agent gate saw on disk before the session changed it
 * is not a new module, even when git never tracked it (the seed false positive: editing an existing
 * file needs no test). The agent gate clears its round at the commit, before this hook runs, so
 * the round as it stood at that commit counts too.
 */
function knownToExist(state: SessionState | undefined): string[] {
  return state === undefined ? [] : [...(state.changed ?? []), ...(state.changedBeforeCommit ?? [])];
}

/** What the sessions an origin names knew existed (R3); a person's commit, what the latest session knew. */
export function knownToExistFor(origin: CommitOrigin): string[] {
  if (origin.by === 'person') return knownToExist(origin.latest?.state);
  return origin.sessions.flatMap((latest) => knownToExist(latest.state));
}

/**
 * The git pre-commit gate: the staged changes judged as one round (R1–R5; R3 with what the agent
 * gate knew existed), R6 from the agent's session when an agent's tool call made the commit. Every failure is listed. Exit 1 refuses the commit; an
 * internal error refuses it too. A person's one-time allowance (`holdfast allow`) is for the
 * agent's tool calls only and never lets a commit through here.
 */
export async function answerPreCommit(options: PreCommitOptions): Promise<HookAnswer> {
  const now = options.now();
  const entry = { time: now.toISOString(), agent: 'git' as const, session: 'pre-commit', tool: 'pre-commit', event: 'pre-commit' };
  let actionText = '';
  try {
    // An agent call whose after-call check was killed or failed is judged first: its violations must not ride in this commit.
    const earlier = await finishUnfinishedAgentCalls({
      root: options.root,
      hook: 'pre-commit',
      rulebook: options.rulebook,
      checkActions: options.checkActions,
      rulebookFile: options.rulebookFile,
      now: options.now,
    });
    if (earlier !== undefined) return { stdout: '', stderr: `${earlier}\n`, exitCode: 1 };
    // Refs moved outside git since the gate last looked (a ref file written directly) are judged first, and put back.
    const refsPutBack = await putBackRefsBetweenCalls({
      root: options.root,
      rules: async () => ({ rulebook: await options.rulebook(), checkActions: await options.checkActions() }),
      observe: false,
    });
    if (refsPutBack.length > 0) {
      const lines = refPutBackLines(refsPutBack);
      await appendAudit(options.root, { ...entry, action: 'refs moved outside git', rule: 'GATE', name: 'REF', decision: 'deny', detail: lines.join(' ') });
      const said = ['holdfast: commit refused: refs were moved outside git (a ref file written directly) onto commits that break the rulebook:', ...lines];
      return { stdout: '', stderr: `${[...said, 'Commit again.'].join('\n')}\n`, exitCode: 1 };
    }
    const staged = stagedFiles(options.root, options.env);
    const { undecodable, links } = staged;
    const { actions, installed } = withoutInstallFiles(staged.actions, options.installOutput, {
      after: (path) => gitBytes(options.root, `:${path}`, options.env),
      before: (path) => gitBytes(options.root, `HEAD:${path}`, options.env),
    });
    actionText = auditActionText(staged.actions);
    const installNote = installed.length === 0 ? '' : ` ${installed.join(', ')}: exactly what holdfast install writes, so the install itself, not judged.`;
    const rulebook = await options.rulebook();
    if (actions.length === 0) return { stdout: `holdfast: nothing staged to judge.${installNote}\n`, stderr: '', exitCode: 0 };
    const checkActions = await options.checkActions();
    const origin = commitOrigin(options.root, options.env, now, options.runOnCommitTree !== undefined);
    const order = await checkCommitOrder(
      rulebook,
      origin,
      checkActions,
      () => stagedTreeIdentity((args, input) => gitOutput(options.root, [...args], input, options.env)),
      options.runOnCommitTree === undefined
        ? undefined
        : {
            root: options.root,
            tree: () => gitOutput(options.root, ['write-tree'], undefined, options.env).toString('utf8').trim(),
            run: options.runOnCommitTree,
          },
    );
    const found = await contentFailures(checkActions, actions, [...committedPaths(options.root), ...knownToExistFor(origin)], rulebook, undecodable, links);
    if (order?.judged === true) found.push(...order.failures);
    // A rule at warn lets the commit through, said on stderr and recorded as warned.
    const { blocking: failures, warnings } = byEnforcement(rulebook, found);
    const orderNote = order === undefined ? '' : order.note;
    const warned =
      warnings.length === 0
        ? []
        : [
            `holdfast: warning, ${warnings.length} rule${warnings.length === 1 ? '' : 's'} at warn level broken (not enforced yet):`,
            ...warnings.map((warning) => `  ${warning.detail}`),
          ];
    if (failures.length > 0) {
      const rules = [...new Set(failures.map((failure) => failure.rule))];
      await appendAudit(options.root, {
        ...entry,
        action: actionText,
        rule: failures[0]?.rule ?? null,
        name: failures[0]?.name,
        rules: rules.length > 1 ? rules : undefined,
        decision: 'deny',
        detail: failures.map((failure) => failure.detail).join(' | '),
      });
      const lines = [`holdfast: commit refused, ${failures.length} violation${failures.length === 1 ? '' : 's'} in the staged changes:`];
      for (const failure of failures) lines.push(`  ${failure.detail}`);
      if (orderNote !== '') lines.push(orderNote);
      lines.push(...warned);
      lines.push('Fix the staged files (and run the required commands on exactly what you commit), then commit again.');
      return { stdout: '', stderr: `${lines.join('\n')}\n`, exitCode: 1 };
    }
    const rules = [...new Set(warnings.map((warning) => warning.rule))];
    await appendAudit(options.root, {
      ...entry,
      action: actionText,
      rule: warnings[0]?.rule ?? null,
      ...(warnings.length === 0 ? {} : { name: warnings[0]?.name, rules: rules.length > 1 ? rules : undefined }),
      decision: warnings.length === 0 ? 'allow' : 'warned',
      detail:
        `${actions.length} staged change(s): no ${warnings.length === 0 ? '' : 'blocking '}rule refused them.${installNote} ${[...warnings.map((warning) => warning.detail), orderNote].join(' ')}`.trim(),
    });
    const ok = `holdfast: ${actions.length} staged change${actions.length === 1 ? '' : 's'} judged, no ${warnings.length === 0 ? '' : 'blocking '}rule refused them.${installNote}`;
    return { stdout: `${ok}${orderNote === '' ? '' : ` ${orderNote}`}\n`, stderr: warned.length === 0 ? '' : `${warned.join('\n')}\n`, exitCode: 0 };
  } catch (error) {
    const reason = internalErrorReason(error, 'the commit is refused');
    try {
      await appendAudit(options.root, { ...entry, action: actionText, rule: 'INTERNAL', name: 'ERROR', decision: 'deny', detail: reason });
    } catch {
      // nothing more to do: the refusal below still stops the commit
    }
    return { stdout: '', stderr: `${reason}\n`, exitCode: 1 };
  }
}

/** The top of the work tree git runs the hook in; the directory itself when git cannot say. */
export function gitRoot(cwd: string): string {
  try {
    return gitOutput(cwd, ['rev-parse', '--show-toplevel']).toString('utf8').trim() || cwd;
  } catch {
    return cwd;
  }
}
