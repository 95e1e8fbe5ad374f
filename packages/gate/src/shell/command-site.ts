import type { Field, Output } from '@holdfast/core/shell';

/**
 * One simple command being read, as the program handlers see it: where it runs, what it reads, and
 * how to record what it does. The reader implements it; handlers never touch the syntax tree.
 */
export interface CommandSite {
  /** The command's own source text, quoted back in every reason. */
  readonly segment: string;
  /** The project root (absolute). */
  readonly root: string;
  /** The directory it runs in; undefined after a `cd` that cannot be read. */
  readonly cwd: string | undefined;
  readonly stdin: Output;
  /** Whether the whole command line mentions a commit (or hooks): what cannot be read may then be one. */
  readonly mayCommit: boolean;
  /** A bypass of the git hooks or the gate; `reason` completes "`segment` …". */
  bypass(reason: string): void;
  /** Files may change in ways not known statically; `reason` completes "`segment` …". */
  unknown(reason: string): void;
  /** Something that cannot be read at all: an unknown effect, and a possible commit without hooks. */
  unreadable(reason: string): void;
  commit(message: string): void;
  /** The absolute path a field names, or undefined (recorded as an unknown effect) when it cannot be known. */
  resolve(field: Field, cwd?: string | undefined): string | undefined;
  /** The path relative to the project root, as rules judge it. */
  repoPath(absolutePath: string): string;
  /** A file's content as it will be at this point of the command ('' when it does not exist). */
  readFile(absolutePath: string): Output;
  exists(absolutePath: string): boolean;
  isDirectory(absolutePath: string): boolean;
  write(absolutePath: string, content: Output): void;
  remove(absolutePath: string): void;
  /** Reads a command line that may run later (an alias body): the bypasses it would make. */
  probe(commandLine: string): string[];
  /** Reads a command line that runs now (`bash -c`, `eval`, `rebase --exec`). */
  runText(commandLine: string, stdin: Output, cwd?: string | undefined): Output;
  /** Runs an argument vector as a command (what `xargs`, `find -exec` and `env -S` start). */
  runFields(fields: readonly Field[], stdin: Output, cwd?: string | undefined, env?: ReadonlyMap<string, Field>): Output;
}

/** A program's handler: records its effects on the site and returns what it prints. */
export type ProgramHandler = (args: readonly Field[], site: CommandSite) => Output;
