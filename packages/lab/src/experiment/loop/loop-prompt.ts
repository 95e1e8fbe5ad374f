import type { TaskInfo } from '@holdfast/core/contract';
import { AGENTS_FILE } from '../prompt.js';
import { pathListing, PROMPT_BUDGET_CHARS } from '../prompt-files.js';

/**
 * The loop's system prompt. Like the plan mode's, it names the role and says nothing about checks
 * or enforcement: the told and held arms read the same words.
 */
export const LOOP_SYSTEM_PROMPT = [
  'You are a coding agent working in a git repository. Use the tools to read files, change them, run',
  'commands and commit, one step at a time; each tool answers with its result. The repository has an',
  `${AGENTS_FILE} with the rules for working in it. When the ticket is done (or you will not do it),`,
  'stop calling tools and reply with a short summary of what you did and why.',
].join('\n');

/** The first user message: the files there are, the rulebook as the repository carries it, and the ticket. */
export function loopTicketMessage(task: TaskInfo, agentsMd: string): string {
  const paths = [...new Set([...Object.keys(task.files), AGENTS_FILE])].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  return [
    '## Repository files',
    '',
    // A large repository's list collapses crowded folders into counts; the model lists them with its tools.
    pathListing(paths, PROMPT_BUDGET_CHARS / 4).join('\n'),
    '',
    `## ${AGENTS_FILE}`,
    '',
    agentsMd.trim(),
    '',
    '## Ticket',
    '',
    task.ticket.trim(),
  ].join('\n');
}

/** The task's repository as the loop's arms find it: its files, with the rulebook as its AGENTS.md. */
export function loopTask(task: TaskInfo, agentsMd: string): TaskInfo {
  return { ...task, files: { ...task.files, [AGENTS_FILE]: agentsMd } };
}
