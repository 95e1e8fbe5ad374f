import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';

/**
 * The environment variable `holdfast exec` sets inside its sandbox. The hook reads it to send its
 * decision to the gate broker outside (see gate-broker.ts); doctor reads it to say the layer is on.
 */
export const EXEC_MARKER = 'HOLDFAST_EXEC';

/**
 * Where the broker's socket is inside the sandbox. A fixed path, never one taken from the
 * environment: a command the agent runs could point a variable at a socket of its own that
 * answers "allow"; this path is a read-only mount it cannot replace.
 */
export const EXEC_GATE_DIR = '/tmp/holdfast-gate';
export const EXEC_GATE_SOCKET = `${EXEC_GATE_DIR}/gate.sock`;

/** What a confined process sees besides the read-only system, in the order bubblewrap mounts it. */
export interface ContainmentPlan {
  /** Folders replaced by an empty private tmpfs (/tmp, the host HOME). */
  readonly hidden: readonly string[];
  /** Mounted back read-only after the hidden folders (installs that live under HOME or /tmp). */
  readonly readable: readonly string[];
  /** Bound read-write at the same path: the project, the agent's own state. */
  readonly writable: readonly string[];
  /** Bound read-only over the writable mounts: the gate's files inside the project. */
  readonly readOnlyOver: readonly string[];
  /** Extra read-only binds from one path to another (the broker's socket folder). */
  readonly mounted?: readonly { readonly from: string; readonly to: string }[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd: string;
  /**
   * A new session (setsid): the confined process cannot push keystrokes into the terminal it was
   * started from (TIOCSTI). An interactive agent needs the terminal as its controlling one, so exec
   * leaves it off when stdin is a terminal.
   */
  readonly newSession: boolean;
}

export function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/**
 * bubblewrap's arguments for a plan. Every namespace is new but the network (the agent talks to its
 * model): a new pid namespace whose init is bubblewrap, so when the agent exits every process it
 * started is killed, detached or not; `--die-with-parent` ends all of it if the caller dies. The
 * system is read-only; what the plan makes writable is all that is.
 */
export function containmentArgs(plan: ContainmentPlan): string[] {
  const present = (paths: readonly string[]) => [...new Set(paths.filter((path) => existsSync(path)))];
  return [
    '--unshare-all',
    '--share-net',
    '--die-with-parent',
    ...(plan.newSession ? ['--new-session'] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...plan.hidden.flatMap((folder) => ['--tmpfs', folder]),
    ...present(plan.readable).flatMap((path) => ['--ro-bind', path, path]),
    ...present(plan.writable).flatMap((path) => ['--bind', path, path]),
    ...present(plan.readOnlyOver).flatMap((path) => ['--ro-bind', path, path]),
    ...(plan.mounted ?? []).flatMap((mount) => ['--ro-bind', mount.from, mount.to]),
    ...Object.entries(plan.env ?? {}).flatMap(([name, value]) => ['--setenv', name, value]),
    '--chdir',
    plan.cwd,
    '--',
  ];
}

/** bwrap on PATH, if it is there and executable. */
export function findBubblewrap(env: NodeJS.ProcessEnv): string | undefined {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** What to tell a person whose machine has no bubblewrap. */
export const BUBBLEWRAP_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap) and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)';

/**
 * The folder to keep readable for a program: a package under `node_modules` brings the whole
 * installation (Codex's launcher runs a native binary from a sibling package), anything else its folder.
 */
export function installationOf(program: string): string {
  const real = existsSync(program) ? realpathSync(program) : program;
  const at = real.lastIndexOf(`${sep}node_modules${sep}`);
  if (at > 0) return real.slice(0, at);
  return statSync(real, { throwIfNoEntry: false })?.isDirectory() === true ? real : dirname(real);
}

/** A program named on the command line, found on PATH as a shell would (or as given when it has a slash). */
export function findProgram(name: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (name.includes('/')) return existsSync(join(cwd, name)) || existsSync(name) ? (name.startsWith('/') ? name : join(cwd, name)) : undefined;
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
