import { join } from 'node:path';
import { looksSecret, scrubEnv } from '../models/index.js';
import type { HarnessTarget } from '../models/index.js';
import { commandNodeVersion, typescriptNodeOptions } from '../sandbox/typescript-support.js';
import type { InvocationContext } from './harness.js';
import { harnessOf } from './harnesses.js';

export interface HarnessInvocation {
  readonly file: string;
  readonly args: string[];
  readonly stdin?: string;
  readonly env: Record<string, string>;
  /** Values of the variables passed through that hold keys: redacted from everything recorded. */
  readonly secrets: string[];
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
    ...(harnessOf(target.provider).environment?.(context.homeDir) ?? {}),
    // Marks every commit the harness makes as an agent's for the git hooks (a generic agent has no hook
    // that leaves a call record): its --no-verify is judged, never honoured as a person's.
    HOLDFAST_AGENT: '1',
  };
  // The task repositories test TypeScript with Node's own runner: when the node the agent's commands
  // find on its PATH does not strip types itself, the agent's own `npm test` gets the same type-stripping
  // preload holdfast's commands get, or every test run the agent makes fails (and, rightly, no commit
  // after it counts as tested). That node, not the one running holdfast, decides.
  const typescript = typescriptNodeOptions(commandNodeVersion(env.PATH ?? '', context.workDir));
  if (typescript !== undefined) env.NODE_OPTIONS = [scrubbed.NODE_OPTIONS, typescript].filter((part) => part !== undefined && part !== '').join(' ');
  const secrets = named.filter((name) => name === target.keyEnv || looksSecret(name)).flatMap((name) => (scrubbed[name] !== undefined ? [scrubbed[name]] : []));
  return { env, secrets };
}

/**
 * One run's command line: the harness in its repository with the ticket as its prompt, its command
 * line as its own folder says (claude-code/, codex/, agent/), an isolated HOME, and only the
 * variables the target names passed through.
 */
export function harnessInvocation(target: HarnessTarget, context: InvocationContext): HarnessInvocation {
  const { env, secrets } = environment(target, context);
  const { args, stdin } = harnessOf(target.provider).commandLine(target, context);
  return { file: context.binary, args, ...(stdin !== undefined ? { stdin } : {}), env, secrets };
}
