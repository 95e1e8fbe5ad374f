import { InputError } from '../contract/errors.js';
import { EXIT, withCommandPrefix, writeLine } from './io.js';
import type { CliIo } from './io.js';

/** A verb's module: loaded only when it is called. */
export interface CommandModule {
  run(args: string[], io: CliIo): Promise<number>;
}

/**
 * Runs one verb and turns what it lets escape into an exit code: bad input (an InputError) is exit 2
 * with the verb's name in front, anything else an internal error (exit 3). One place for every entry.
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
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeLine(io.stderr, `holdfast ${name}: internal error: ${message}`);
    return EXIT.internal;
  }
}
