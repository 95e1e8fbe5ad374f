import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { InputError } from '../contract/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type ParsedCommandArgs<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/**
 * Node's own argument parser, with its errors turned into an InputError that names the command,
 * so every command refuses an unknown flag the same way.
 */
export function parseCommandArgs<const O extends Options>(command: string, args: string[], options: O): ParsedCommandArgs<O> {
  // Only positionals and no defaults (the hook command as installed, `hook claude-code`): what parseArgs
  // would return, without loading its module, which every hook process would pay for.
  if (args.every((arg) => !arg.startsWith('-')) && Object.values(options).every((option) => option.default === undefined)) {
    return { values: Object.create(null) as ParsedCommandArgs<O>['values'], positionals: [...args] } as ParsedCommandArgs<O>;
  }
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InputError('E_ARGS', `holdfast ${command}: ${message}. See \`holdfast ${command} --help\`.`, {
      cause: error,
    });
  }
}

/** Turns a numeric flag into an integer within bounds, or refuses it naming the flag. */
export function integerFlag(command: string, flag: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new InputError('E_ARGS', `holdfast ${command}: --${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return parsed;
}
