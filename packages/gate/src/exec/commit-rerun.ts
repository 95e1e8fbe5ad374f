import type { CheckResult, Rulebook } from '@holdfast/core/contract';
import { requiredCommands } from '@holdfast/core/rules';
import { rerunTimeoutMs } from '../decide/index.js';
import { runOnTree } from './tree-rerun.js';
import type { TreeRunOutcome } from './tree-rerun.js';

/** Runs `command` on a private copy of the tree `tree` of the project's own repository (tree-rerun.ts). */
export type RunOnCommitTree = (run: {
  readonly root: string;
  readonly tree: string;
  readonly command: string;
  readonly timeoutMs: number;
}) => Promise<TreeRunOutcome>;

/** The exec broker's runner: bubblewrap, the broker's environment, ended early when the hook's decision is out of time. */
export function commitTreeRunner(setup: { readonly bwrap: string; readonly env: NodeJS.ProcessEnv; readonly signal?: AbortSignal }): RunOnCommitTree {
  return (run) =>
    runOnTree({
      root: run.root,
      tree: run.tree,
      command: run.command,
      bwrap: setup.bwrap,
      env: setup.env,
      timeoutMs: run.timeoutMs,
      ...(setup.signal !== undefined ? { signal: setup.signal } : {}),
    });
}

function why(outcome: TreeRunOutcome): string | undefined {
  if (outcome.kind === 'passed') return undefined;
  if (outcome.kind === 'failed')
    return `it ${outcome.ending}${outcome.outputTail.trim() === '' ? '' : `; its output ended: ${outcome.outputTail.trim().slice(-400)}`}`;
  return `it could not be run there (${outcome.why})`;
}

/**
 * Under `holdfast exec` with no agent session recorded (a program without agent hooks), the gate
 * runs each `requires` command (an `order` rule's `example`) itself on exactly the committed tree: a command that does not exit 0
 * there, or cannot be run at all, refuses the commit (fail closed). One failure per rule.
 */
export async function rerunRequiredOnTree(rulebook: Rulebook, root: string, tree: string, run: RunOnCommitTree): Promise<CheckResult[]> {
  const failures: CheckResult[] = [];
  const timeoutMs = rerunTimeoutMs(rulebook);
  const required = requiredCommands(rulebook);
  for (const rule of rulebook.rules) {
    const commands = required.filter((each) => each.rule.id === rule.id).map((each) => each.example);
    for (const command of commands) {
      let outcome: TreeRunOutcome;
      try {
        outcome = await run({ root, tree, command, timeoutMs });
      } catch (error) {
        outcome = { kind: 'not-run', why: error instanceof Error ? error.message : String(error) };
      }
      const reason = why(outcome);
      if (reason === undefined) continue;
      failures.push({
        rule: rule.id,
        name: rule.name,
        actionIndex: 0,
        ok: false,
        detail: `${rule.id} ${rule.name}: no agent session recorded a pass, so the gate ran \`${command}\` itself on the committed tree ${tree.slice(0, 12)} and ${reason}. Make \`${command}\` pass on what you commit, then commit again.`,
      });
      break;
    }
  }
  return failures;
}
