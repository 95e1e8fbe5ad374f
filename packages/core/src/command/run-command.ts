import { InputError } from '../contract/errors.js';
import { EXIT, withCommandPrefix, writeLine } from './io.js';
import type { CliIo } from './io.js';

/** A verb's module: loaded only when it is called. */
export interface CommandModule {
  run(args: string[], io: CliIo): Promise<number>;
}

/**
 * Runs one verb and turns what it lets escape into an exit code: bad input (an InputError) is exit 2
 * with the verb's name in front, a full disk or an unwritable run file exit 4, anything else an internal error (exit 3). One place for every entry.
 */
export async function runCommand(name: string, load: () => Promise<CommandModule>, args: string[], io: CliIo): Promise<number> {
  try {
    const command = await load();
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, withCommandPrefix(name, error.message));
      return EXIT.usage;
    }
    if (isEnvironmentError(error)) {
      writeLine(io.stderr, withCommandPrefix(name, error.message));
      return EXIT.environment;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeLine(io.stderr, `holdfast ${name}: internal error: ${message}`);
    return EXIT.internal;
  }
}

/** A full disk or an unwritable run file: the machine's refusal, said without a stack trace (exit 4). */
function isEnvironmentError(error: unknown): error is Error {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return code === 'E_RUN_FILE_NO_SPACE' || code === 'E_RUN_FILE_ACCESS';
}
