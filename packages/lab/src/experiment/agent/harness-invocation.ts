import { typescriptNodeOptions } from '../../sandbox/typescript-support.js';
import { join } from 'node:path';
import { PROMPT_PLACEHOLDER, looksSecret, scrubEnv } from '../../models/index.js';
import type { HarnessTarget } from '../../models/index.js';

const MAX_TURNS_PLACEHOLDER = '{maxTurns}';

/** Claude Code may act without asking (there is nobody to ask in `-p` mode); the hooks still judge every call. */
const CLAUDE_CODE_TOOLS = ['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read', 'Glob', 'Grep', 'LS'];

export interface HarnessInvocation {
  readonly file: string;
  readonly args: string[];
  readonly stdin?: string;
  readonly env: Record<string, string>;
  /** Values of the variables passed through that hold keys: redacted from everything recorded. */
  readonly secrets: string[];
}

export interface InvocationContext {
  readonly binary: string;
  readonly prompt: string;
  /** The arm's repository: the harness's working directory and project root. */
  readonly workDir: string;
  /** The arm's own HOME: no host settings, credentials or session history reach the harness. */
  readonly homeDir: string;
  /** Where the passed-through variables are read (process env plus `.env`). */
  readonly env: NodeJS.ProcessEnv;
}

/** Settings that keep a harness quiet and local: no updater, no telemetry, no colour codes in its output. */
const QUIET = {
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  NO_COLOR: '1',
  CI: '1',
};

function environment(target: HarnessTarget, context: InvocationContext): { env: Record<string, string>; secrets: string[] } {
  const named = target.keyEnv !== undefined ? [...target.env, target.keyEnv] : [...target.env];
  const scrubbed = scrubEnv(context.env, named);
  const env: Record<string, string> = {
    ...scrubbed,
    ...QUIET,
    HOME: context.homeDir,
    TMPDIR: join(context.homeDir, 'tmp'),
    XDG_CONFIG_HOME: join(context.homeDir, '.config'),
    XDG_CACHE_HOME: join(context.homeDir, '.cache'),
    XDG_DATA_HOME: join(context.homeDir, '.local', 'share'),
    ...(target.provider === 'codex' ? { CODEX_HOME: join(context.homeDir, '.codex') } : {}),
    // Marks every commit the harness makes as an agent's for the git hooks (a generic agent has no hook
    // that leaves a call record): its --no-verify is judged, never honoured as a person's.
    HOLDFAST_AGENT: '1',
  };
  // The task repositories test TypeScript with Node's own runner: on a Node that does not strip types
  // itself, the agent's own `npm test` gets the same type-stripping preload holdfast's commands get,
  // or every test run the agent makes fails (and, rightly, no commit after it counts as tested).
  const typescript = typescriptNodeOptions();
  if (typescript !== undefined) env.NODE_OPTIONS = [scrubbed.NODE_OPTIONS, typescript].filter((part) => part !== undefined && part !== '').join(' ');
  const secrets = named.filter((name) => name === target.keyEnv || looksSecret(name)).flatMap((name) => (scrubbed[name] !== undefined ? [scrubbed[name]] : []));
  return { env, secrets };
}

/**
 * The command line of one arm: the harness in the arm's repository with the ticket as its prompt.
 * Claude Code: `-p TICKET --output-format json --max-turns N`, with its file and shell tools allowed.
 * Codex: `exec --json` with approvals and its own sandbox off (holdfast's repository is the sandbox).
 * A generic agent: its command, `{prompt}` and `{maxTurns}` filled in, or the ticket on stdin.
 */
export function harnessInvocation(target: HarnessTarget, context: InvocationContext): HarnessInvocation {
  const { env, secrets } = environment(target, context);
  const model = target.model !== undefined && target.provider !== 'agent' ? ['--model', target.model] : [];
  switch (target.provider) {
    case 'claude-code':
      return {
        file: context.binary,
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
          CLAUDE_CODE_TOOLS.join(','),
          '--no-session-persistence',
          ...model,
          ...target.args,
        ],
        env,
        secrets,
      };
    case 'codex':
      return {
        file: context.binary,
        args: [
          'exec',
          '--json',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          '--cd',
          context.workDir,
          ...model,
          ...target.args,
          context.prompt,
        ],
        env,
        secrets,
      };
    case 'agent': {
      const [, ...rest] = target.command;
      const takesArgument = target.command.some((part) => part.includes(PROMPT_PLACEHOLDER));
      const args = rest.map((part) => part.split(PROMPT_PLACEHOLDER).join(context.prompt).split(MAX_TURNS_PLACEHOLDER).join(String(target.maxTurns)));
      return { file: context.binary, args, ...(takesArgument ? {} : { stdin: context.prompt }), env, secrets };
    }
  }
}
