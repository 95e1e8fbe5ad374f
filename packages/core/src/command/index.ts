export { integerFlag, parseCommandArgs } from './args.js';
export { EXIT, exitQuietlyOnClosedPipe, processIo, readAllText, withCommandPrefix, writeLine } from './io.js';
export type { CliIo } from './io.js';
export { runCommand } from './run-command.js';
export type { CommandModule } from './run-command.js';
export { readJsonFile } from '../contract/json-file.js';
export { packageVersion } from '../contract/package-version.js';
