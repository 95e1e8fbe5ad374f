import { execFileSync } from 'node:child_process';
import type { Action, Rulebook } from '../contract/index.js';
import { appendAudit } from './audit.js';
import { BYPASS_HINT, BYPASS_VARIABLE, internalErrorReason } from './hook-answer.js';
import type { HookAnswer } from './hook-answer.js';
import type { CheckActions } from './judge.js';
import { describeAction } from '../reply/summarize.js';

const MAX_BUFFER = 64 * 1024 * 1024;

function git(root: string, args: string[]): Buffer {
  return execFileSync('git', args, { cwd: root, maxBuffer: MAX_BUFFER, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The staged changes as actions: an added or modified file is a write of its staged content, a
 * removed file a delete. Renames are read as delete + add, so a moved module is a new module.
 */
export function stagedActions(root: string): Action[] {
  const fields = git(root, ['diff', '--cached', '--name-status', '--no-renames', '-z']).toString('utf8').split('\0');
  const actions: Action[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index] as string;
    const path = fields[index + 1] as string;
    if (status.startsWith('D')) actions.push({ type: 'delete', path });
    else actions.push({ type: 'write', path, content: git(root, ['show', `:${path}`]).toString('utf8') });
  }
  return actions;
}

/** Files in the last commit: what existed before this commit, so an added file is a new module. */
export function committedPaths(root: string): string[] {
  try {
    git(root, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  } catch {
    return [];
  }
  return git(root, ['ls-tree', '-r', '--name-only', '-z', 'HEAD']).toString('utf8').split('\0').filter((path) => path !== '');
}

export interface PreCommitOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly rulebook: () => Promise<Rulebook>;
  readonly checkActions: () => Promise<CheckActions>;
}

/**
 * The git pre-commit gate: the staged changes judged as one round. Rules about the order of actions
 * (R6: tests before commit) cannot be judged from a staged tree, so they are skipped and the output
 * says so. Exit 1 refuses the commit; an internal error refuses it too.
 */
export async function answerPreCommit(options: PreCommitOptions): Promise<HookAnswer> {
  const now = options.now();
  const entry = { time: now.toISOString(), agent: 'git' as const, session: 'pre-commit', tool: 'pre-commit' };
  let actionText = '';
  try {
    const actions = stagedActions(options.root);
    actionText = actions.map(describeAction).join('; ').slice(0, 400);
    if (options.env[BYPASS_VARIABLE] === 'off') {
      appendAudit(options.root, { ...entry, action: actionText, rule: null, decision: 'bypassed', detail: `${BYPASS_VARIABLE}=off: the commit went through unjudged.` });
      return { stdout: '', stderr: `holdfast: ${BYPASS_VARIABLE}=off, the commit is not judged.\n`, exitCode: 0 };
    }
    const rulebook = await options.rulebook();
    const orderRules = rulebook.rules.filter((rule) => rule.check.kind === 'order');
    const skippedNote =
      orderRules.length === 0
        ? ''
        : `${orderRules.map((rule) => `${rule.id} ${rule.name}`).join(', ')} skipped: the order of test runs and commits cannot be judged from staged changes.`;
    if (actions.length === 0) return { stdout: `holdfast: nothing staged to judge.${skippedNote === '' ? '' : ` ${skippedNote}`}\n`, stderr: '', exitCode: 0 };
    const skippedIds = new Set(orderRules.map((rule) => rule.id));
    const checkActions = await options.checkActions();
    const results = await checkActions(actions, committedPaths(options.root), rulebook);
    const failures = results.filter((result) => !result.ok && !skippedIds.has(result.rule));
    if (failures.length > 0) {
      const first = failures[0];
      appendAudit(options.root, {
        ...entry,
        action: actionText,
        rule: first?.rule ?? null,
        name: first?.name,
        decision: 'deny',
        detail: failures.map((failure) => failure.detail).join(' | '),
      });
      const lines = [`holdfast: commit refused, ${failures.length} violation${failures.length === 1 ? '' : 's'} in the staged changes:`];
      for (const failure of failures) lines.push(`  ${failure.detail}`);
      if (skippedNote !== '') lines.push(skippedNote);
      lines.push(`Fix the staged files and commit again. ${BYPASS_HINT}`);
      return { stdout: '', stderr: `${lines.join('\n')}\n`, exitCode: 1 };
    }
    appendAudit(options.root, { ...entry, action: actionText, rule: null, decision: 'allow', detail: `${actions.length} staged change(s): no rule refused them.` });
    const ok = `holdfast: ${actions.length} staged change${actions.length === 1 ? '' : 's'} judged, no rule refused them.`;
    return { stdout: `${ok}${skippedNote === '' ? '' : ` ${skippedNote}`}\n`, stderr: '', exitCode: 0 };
  } catch (error) {
    const reason = internalErrorReason(error);
    try {
      appendAudit(options.root, { ...entry, action: actionText, rule: 'INTERNAL', name: 'ERROR', decision: 'deny', detail: reason });
    } catch {
      // nothing more to do: the refusal below still stops the commit
    }
    return { stdout: '', stderr: `${reason}\n`, exitCode: 1 };
  }
}

/** The top of the work tree git runs the hook in; the directory itself when git cannot say. */
export function gitRoot(cwd: string): string {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']).toString('utf8').trim() || cwd;
  } catch {
    return cwd;
  }
}
