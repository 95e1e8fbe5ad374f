import type { Rulebook } from '@holdfast/core/contract';
import { requiredCommands } from '@holdfast/core/rules';
import type { GitReader } from '../git/index.js';
import { readGit } from '../git/index.js';
import { rerunTimeoutMs } from '../decide/index.js';
import { runOnTree } from '../exec/index.js';
import type { TreeRunDeadline } from '../exec/index.js';

/** What `verify --run-required` needs to run a command confined (bubblewrap's path; a test's deadline). */
export interface RunRequiredSetup {
  readonly bwrap: string;
  readonly deadline?: TreeRunDeadline;
}

/** One required command, run by verify on the head tree, and how it ended. */
export interface RequiredRunResult {
  readonly rule: string;
  readonly name: string;
  readonly command: string;
  /** Undefined when it passed (exit 0); else how it ended, with the end of its output. */
  readonly failure: string | undefined;
}

/** The commands a rulebook's commit-timed rules require, in rule order (core's requiredCommands). */
function requiredCommandsOf(rulebook: Rulebook): { rule: string; name: string; command: string }[] {
  return requiredCommands(rulebook).map((required) => ({ rule: required.rule.id, name: required.rule.name, command: required.example }));
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

/**
 * Runs every command the base's rulebook requires before a commit on the head tree, confined like a
 * sandbox command (tree-rerun.ts), one after the other. Why: a history cannot show which commands
 * passed; running them where the agent cannot reach is what makes "tests pass" a fact of the tree.
 */
export async function runRequiredOnHead(reader: GitReader, head: string, rulebook: Rulebook, setup: RunRequiredSetup): Promise<RequiredRunResult[]> {
  const tree = readGit(reader, ['rev-parse', '--verify', `${head}^{tree}`])
    .toString('utf8')
    .trim();
  const gitDir = readGit(reader, ['rev-parse', '--absolute-git-dir']).toString('utf8').trim();
  const results: RequiredRunResult[] = [];
  for (const required of requiredCommandsOf(rulebook)) {
    const outcome = await runOnTree({
      root: reader.cwd,
      gitDir,
      tree,
      command: required.command,
      bwrap: setup.bwrap,
      env: reader.env,
      timeoutMs: rerunTimeoutMs(rulebook),
      ...(setup.deadline !== undefined ? { deadline: setup.deadline } : {}),
    });
    const failure =
      outcome.kind === 'passed'
        ? undefined
        : outcome.kind === 'not-run'
          ? `it could not be run (${outcome.why})`
          : `${outcome.ending.replace('the gate’s own run of it', 'it')}${outcome.outputTail.trim() === '' ? '' : `; its output ended with: ${lastLines(outcome.outputTail, 5)}`}`;
    results.push({ ...required, failure });
  }
  return results;
}
