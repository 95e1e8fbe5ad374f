import { compilePattern } from '@holdfast/core/rules';
import type { Pattern } from '@holdfast/core/rules';
import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { checkActions } from '@holdfast/core/rules';

/**
 * What the session did so far, for the rules that span several calls: which files it created
 * (R3 TESTS) and whether a passing test run followed its last change (R6 ORDER).
 */
export interface SessionLedger {
  readonly created: ReadonlySet<string>;
  readonly changedSinceTest: boolean;
  /** The last test command that passed with no change after it. */
  readonly passedTest: string | undefined;
  /** A test run after the last change failed: R6's refusal says so, since only a passing run counts. */
  readonly failedTestSinceChange: boolean;
}

export const FRESH_LEDGER: SessionLedger = { created: new Set(), changedSinceTest: false, passedTest: undefined, failedTestSinceChange: false };

/** The order rule's test command pattern, when the rulebook has one that compiles. */
export function testCommandPattern(rulebook: Rulebook): Pick<Pattern, 'test'> | undefined {
  for (const rule of rulebook.rules) {
    if (rule.check.kind !== 'order') continue;
    const compiled = compilePattern(rule.check.command, '');
    return compiled.ok ? compiled.pattern : undefined;
  }
  return undefined;
}

function kindOf(rulebook: Rulebook, ruleId: string): string | undefined {
  return rulebook.rules.find((rule) => rule.id === ruleId)?.check.kind;
}

function onlySiblingTests(rulebook: Rulebook): Rulebook {
  return { ...rulebook, rules: rulebook.rules.filter((rule) => rule.check.kind === 'sibling-test') };
}

export interface JudgeCallInput {
  readonly actions: readonly Action[];
  readonly ledger: SessionLedger;
  readonly rulebook: Rulebook;
  /** The task's files: what the agent found in the repository. */
  readonly baseFiles: ReadonlySet<string>;
  /** Current content of a file the session created, for R3 at a commit. */
  readonly read: (path: string) => string | undefined;
}

/**
 * The failed checks of one call, judged before it applies, with what the session did earlier
 * replayed before it: the last passing test run, if no change came after it (R6). R3 is not judged
 * at a write (a test may follow in a later call) but at a commit, over every module the session
 * created: a commit that would carry a new module without its test fails. Results are indexed by
 * the call's own actions.
 */
export async function judgeCall(input: JudgeCallInput): Promise<CheckResult[]> {
  const { actions, ledger, rulebook } = input;
  const replay: Action[] = !ledger.changedSinceTest && ledger.passedTest !== undefined ? [{ type: 'run', cmd: ledger.passedTest }] : [];
  const results = await checkActions([...replay, ...actions], input.baseFiles, rulebook, undefined, input.read);
  const failures = results
    .filter((result) => !result.ok && result.actionIndex >= replay.length && kindOf(rulebook, result.rule) !== 'sibling-test')
    .map((result) => ({ ...result, actionIndex: result.actionIndex - replay.length, detail: sessionDetail(result, rulebook, ledger) }));
  const commitAt = actions.findIndex((action) => action.type === 'commit');
  if (commitAt !== -1) {
    for (const { check } of await judgeNewModules(input)) failures.push({ ...check, actionIndex: commitAt });
  }
  return failures;
}

/**
 * The order check speaks of a round's action numbers; in a session the commit is the call itself,
 * and a test run that failed is why it has none that counts.
 */
function sessionDetail(result: CheckResult, rulebook: Rulebook, ledger: SessionLedger): string {
  if (kindOf(rulebook, result.rule) !== 'order') return result.detail;
  const detail = result.detail.replace(/commit \(action \d+\)/, 'this commit').replace(/ \(action \d+\)/g, '');
  return ledger.failedTestSinceChange ? `${detail} The tests ran after the last change but failed; only a passing run counts.` : detail;
}

/** R3 over every file the session created that is still there: each new module needs its test beside it. */
export async function judgeNewModules(
  input: Pick<JudgeCallInput, 'ledger' | 'rulebook' | 'baseFiles' | 'read'>,
): Promise<{ check: CheckResult; path: string }[]> {
  const rules = onlySiblingTests(input.rulebook);
  if (rules.rules.length === 0) return [];
  const writes: Action[] = [];
  for (const path of [...input.ledger.created].sort()) {
    const content = input.read(path);
    if (content !== undefined) writes.push({ type: 'write', path, content });
  }
  const results = await checkActions(writes, input.baseFiles, rules);
  return results.flatMap((check) => {
    const write = writes[check.actionIndex];
    return check.ok || write === undefined || write.type !== 'write' ? [] : [{ check, path: write.path }];
  });
}

/** The ledger after a call applied: created files remembered, a change clears the test run, a passing test run sets it. */
export function nextLedger(
  ledger: SessionLedger,
  applied: { readonly actions: readonly Action[]; readonly existedBefore: (path: string) => boolean; readonly testPassed?: boolean },
  pattern: Pick<Pattern, 'test'> | undefined,
): SessionLedger {
  const created = new Set(ledger.created);
  let changedSinceTest = ledger.changedSinceTest;
  let passedTest = ledger.passedTest;
  let failedTestSinceChange = ledger.failedTestSinceChange;
  for (const action of applied.actions) {
    if (action.type === 'write') {
      if (!applied.existedBefore(action.path) && !created.has(action.path)) created.add(action.path);
      changedSinceTest = true;
      failedTestSinceChange = false;
    } else if (action.type === 'delete') {
      created.delete(action.path);
      changedSinceTest = true;
      failedTestSinceChange = false;
    } else if (action.type === 'run' && pattern?.test(action.cmd) === true) {
      if (applied.testPassed === true) {
        changedSinceTest = false;
        passedTest = action.cmd;
        failedTestSinceChange = false;
      } else if (changedSinceTest) {
        failedTestSinceChange = true;
      }
    }
  }
  return { created, changedSinceTest, passedTest, failedTestSinceChange };
}
