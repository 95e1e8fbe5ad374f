import { looksSecret } from './scrub-env.js';
import type { TargetConfig } from './targets-config.js';

/** Shorter values are not keys, and hunting for them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Every secret a target is given, to be redacted from everything a run writes or serves: the value
 * of its `keyEnv` (which also becomes the request's auth header), the value of every variable its
 * `env:` passes through (a person named it, so the program sees it; a program may echo it), and
 * command arguments that carry a key (`--api-key VALUE`, `--token=VALUE`).
 */
export function targetSecrets(target: TargetConfig, env: NodeJS.ProcessEnv): string[] {
  const names = [...('env' in target ? target.env : []), ...('keyEnv' in target && target.keyEnv !== undefined ? [target.keyEnv] : [])];
  const values = names.map((name) => env[name]);
  const args = [...('command' in target ? target.command : []), ...('args' in target ? target.args : [])];
  const found = [...values, ...argumentSecrets(args)].filter((value): value is string => value !== undefined && value.length >= MIN_SECRET_LENGTH);
  return [...new Set(found)];
}

/** `--api-key VALUE` and `--api-key=VALUE` (any flag whose name looks like a credential's). */
function argumentSecrets(args: readonly string[]): string[] {
  const found: string[] = [];
  args.forEach((arg, index) => {
    const equals = arg.indexOf('=');
    if (arg.startsWith('-') && equals !== -1 && looksSecret(arg.slice(0, equals))) found.push(arg.slice(equals + 1));
    const previous = args[index - 1];
    if (previous !== undefined && previous.startsWith('-') && !previous.includes('=') && looksSecret(previous) && !arg.startsWith('-')) found.push(arg);
  });
  return found;
}
