import type { HarnessDefinition } from '../harness.js';
import { AGENT_CLIENTS } from '../clients.js';
import { createClaudeCodeReader } from './report.js';

export { readClaudeCodeResult } from './report.js';

/** Claude Code may act without asking (there is nobody to ask in `-p` mode); the hooks still judge every call. */
const TOOLS = ['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read', 'Glob', 'Grep', 'LS'];

/**
 * Claude Code: `-p TICKET --output-format json --max-turns N`, its file and shell tools allowed, no
 * session kept. It reads CLAUDE.md, never AGENTS.md; its hooks live in `.claude/settings.json`.
 */
export const CLAUDE_CODE: HarnessDefinition<'claude-code'> = {
  provider: 'claude-code',
  program: 'claude',
  client: AGENT_CLIENTS['claude-code'],
  tested: 'end to end, offline: the real Claude Code 2.1.197 on a scripted Anthropic API on 127.0.0.1, told and held (test/e2e/agent-mode.test.ts)',
  rulesFiles: ['CLAUDE.md'],
  hookSettings: '.claude/settings.json',
  commandLine: (target, context) => ({
    args: [
      '-p',
      context.prompt,
      '--output-format',
      'json',
      '--max-turns',
      String(target.maxTurns),
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      TOOLS.join(','),
      '--no-session-persistence',
      ...(target.model !== undefined ? ['--model', target.model] : []),
      ...target.args,
    ],
  }),
  createReader: createClaudeCodeReader,
};
