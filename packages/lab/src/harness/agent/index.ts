import { PROMPT_PLACEHOLDER } from '../../models/index.js';
import type { HarnessDefinition } from '../harness.js';

const MAX_TURNS_PLACEHOLDER = '{maxTurns}';

/**
 * A generic CLI agent: its own command, `{prompt}` and `{maxTurns}` filled in, or the ticket on
 * stdin. It may read either rule file, so it gets both; it has no hook protocol, and nothing of its
 * output is read as a report.
 */
export const GENERIC_AGENT: HarnessDefinition<'agent'> = {
  provider: 'agent',
  rulesFiles: ['AGENTS.md', 'CLAUDE.md'],
  commandLine: (target, context) => {
    const [, ...rest] = target.command;
    const takesArgument = target.command.some((part) => part.includes(PROMPT_PLACEHOLDER));
    const args = rest.map((part) => part.split(PROMPT_PLACEHOLDER).join(context.prompt).split(MAX_TURNS_PLACEHOLDER).join(String(target.maxTurns)));
    return { args, ...(takesArgument ? {} : { stdin: context.prompt }) };
  },
  createReader: () => ({ push: () => undefined, turns: () => undefined, report: () => ({}) }),
};
