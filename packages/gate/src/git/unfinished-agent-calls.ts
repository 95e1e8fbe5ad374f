import type { Rulebook } from '@holdfast/core/contract';
import { byEnforcement, ruleCodeFiles } from '@holdfast/core/rules';
import { checkChangesWith, replayedRound, shippedRulebookPath } from '../decide/index.js';
import type { ChangeCheck, CheckActions } from '../decide/index.js';
import { finishUnfinishedCalls } from '../put-back/index.js';
import { loadSessionState } from '../state/index.js';

export interface UnfinishedAgentCallsInput {
  readonly root: string;
  /** Who finished the calls (the audit log says so), and what it refuses. */
  readonly hook: 'pre-commit' | 'reference-transaction';
  readonly rulebook: () => Promise<Rulebook>;
  readonly checkActions: () => Promise<CheckActions>;
  /** The rulebook file the hook was installed with, absolute or from the root; the shipped one when absent. */
  readonly rulebookFile: string | undefined;
  readonly now: () => Date;
}

/**
 * Before a git hook judges anything: the agent calls of any session whose after-call check was killed
 * or failed (issue 46) are judged as that check would have judged them, and what breaks a rule is put
 * back, so a commit made right after a killed check lands none of it. Returns the refusal to print
 * (undefined when nothing was put back: the hook goes on judging); throws when a check fails again.
 * The commit or ref update is refused even when what was put back was not staged: it was made on a
 * work tree the gate had not judged, and the index may still hold what was put back.
 * The rulebook is loaded only when there is a call to finish; rules at warn put nothing back.
 */
export async function finishUnfinishedAgentCalls(input: UnfinishedAgentCallsInput): Promise<string | undefined> {
  let loaded: Promise<{ rulebook: Rulebook; judge: ChangeCheck }> | undefined;
  const load = () =>
    (loaded ??= (async () => {
      const [rulebook, checkActions] = await Promise.all([input.rulebook(), input.checkActions()]);
      const judge = checkChangesWith({
        rulebook,
        checkActions,
        replay: (at, session) => replayedRound(loadSessionState(at, session).state),
        skipTimings: ['change'],
      });
      return { rulebook, judge };
    })());
  const told = await finishUnfinishedCalls({
    root: input.root,
    base: { time: input.now().toISOString(), agent: 'git', session: input.hook, tool: input.hook },
    judge: async (changes) => {
      const { rulebook, judge } = await load();
      return byEnforcement(rulebook, await judge(changes)).blocking;
    },
    protectedPaths: async () => [input.rulebookFile ?? shippedRulebookPath(), ...ruleCodeFiles((await load()).rulebook)],
    observe: false,
    now: input.now,
    atTurnEnd: false,
    everySession: true,
  });
  if (told === undefined) return undefined;
  const refusal =
    input.hook === 'pre-commit'
      ? 'holdfast: commit refused: it was made on changes the gate had not judged yet and has just put back. Look at `git status`, stage what should be committed, and commit again.'
      : 'holdfast: ref update refused: it was made on changes the gate had not judged yet and has just put back; no ref was moved. Look at `git status` and `git diff --staged`, then try again.';
  return `${told}\n${refusal}`;
}
