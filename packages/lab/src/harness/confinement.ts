import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { confinementArgs, inside, installationOf } from '@holdfast/gate';
import type { Isolation } from '../sandbox/index.js';

/** What a confined harness may see besides the system: the arm's folder (read-write) and what it runs (read-only). */
export interface HarnessConfinement {
  /** The arm's folder: its repository, git dir and HOME. */
  readonly armDir: string;
  readonly workDir: string;
  /**
   * What must stay readable: the harness binary's installation, node, holdfast, a generic agent's
   * files, and the task's base repository (the arm's git borrows its objects).
   */
  readonly readable: readonly string[];
}

export { installationOf };

/**
 * bubblewrap's arguments for a harness: the network stays (the harness talks to its model), every
 * other namespace is new; the system is read-only, /tmp is private, the host's HOME is hidden,
 * and only the arm's folder is writable. What the harness and the hook need from hidden places
 * (an install under HOME or /tmp) is mounted back read-only.
 */
export function harnessBubblewrapArgs(confinement: HarnessConfinement, hostHome: string = homedir()): string[] {
  const hidden = ['/tmp', ...(hostHome !== '' && hostHome !== '/' && existsSync(hostHome) ? [hostHome] : [])];
  // Mounted back after the private /tmp, /dev and HOME hid them (a run's repositories often live in /dev/shm).
  const readable = confinement.readable.filter((path) => !inside(path, '/usr'));
  // The harness talks to its model with its key; the host HOME is hidden whole, so there is nothing to mask in it.
  return confinementArgs({
    network: 'shared',
    secretVariables: 'kept',
    masked: [],
    hidden,
    readable,
    writable: [confinement.armDir],
    readOnlyOver: [],
    cwd: confinement.workDir,
    newSession: true,
  });
}

/** The harness command line, inside bubblewrap when it can isolate here; as it is otherwise. */
export function confineHarness(
  isolation: Isolation,
  command: { readonly file: string; readonly args: readonly string[] },
  confinement: HarnessConfinement,
): { file: string; args: string[] } {
  if (isolation.kind !== 'bubblewrap') return { file: command.file, args: [...command.args] };
  return { file: isolation.bwrap, args: [...harnessBubblewrapArgs(confinement), command.file, ...command.args] };
}

/** Absolute paths among a generic agent's arguments (its script, say): they must stay readable. */
export function pathsIn(args: readonly string[]): string[] {
  return args.filter((arg) => isAbsolute(arg) && existsSync(arg));
}
