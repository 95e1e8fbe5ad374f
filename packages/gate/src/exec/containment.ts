import { accessSync, constants, existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/**
 * The one confinement module: every confined process of holdfast (`holdfast exec`, agent mode's
 * harness, a sandbox trial's command and its acceptance check, the broker's tree re-run and
 * `verify --run-required`) is described by one `ConfinementPolicy` and started with bubblewrap's
 * arguments from `confinementArgs`. What differs between them is a field, never a copy.
 */

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

/** A bind from one host path to another place inside (a copied tree at the project's path, the broker's socket folder). */
interface ConfinementMount {
  readonly from: string;
  readonly to: string;
  readonly access: 'read' | 'write';
  /** Skipped when `from` does not exist (an ignored file the tree re-run binds if the project has it). */
  readonly optional?: boolean;
}

/**
 * What a confined process sees, in the order bubblewrap mounts it. The base is always the host's
 * file system read-only, as the user sees it (the agent vendors' sandboxes start there too:
 * toolchains under HOME, pyenv, rustup, corepack all run); each field narrows or opens it.
 */
export interface ConfinementPolicy {
  /**
   * `shared`: the host network (an agent talks to its model: `exec`, agent mode). `loopback`: a
   * network namespace of its own with only `lo` (trials, the tree re-run, `verify --run-required`):
   * a test server on 127.0.0.1 works, nothing leaves the machine.
   */
  readonly network: 'shared' | 'loopback';
  /** Folders replaced by an empty private tmpfs (/tmp always; exec's host HOME; a run's sandbox folder). */
  readonly hidden: readonly string[];
  /** Mounted back read-only after the hidden folders (installs that live under HOME or /tmp). */
  readonly readable: readonly string[];
  /** Bound read-write at the same path: the project or the trial's work tree, the agent's own state, named caches. */
  readonly writable: readonly string[];
  /** Bound read-only over the writable mounts: the gate's files inside the project, installed dependencies. */
  readonly readOnlyOver: readonly string[];
  /** Binds from one path to another. */
  readonly mounted?: readonly ConfinementMount[];
  /**
   * Places made unreadable last, over everything else: a folder becomes an empty read-only tmpfs,
   * a file reads as empty. See `credentialPlaces` for the list a trial gets.
   */
  readonly masked: readonly string[];
  /**
   * `dropped`: variables that look like secrets (tokens, keys, passwords) are removed from the
   * environment the process is started with (`confinedEnvironment`). `kept`: `exec` and agent mode,
   * whose agent needs its model's key.
   */
  readonly secretVariables: 'kept' | 'dropped';
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd: string;
  /**
   * A new session (setsid): the confined process cannot push keystrokes into the terminal it was
   * started from (TIOCSTI). An interactive agent needs the terminal as its controlling one, so exec
   * leaves it off when stdin is a terminal.
   */
  readonly newSession: boolean;
  /** A host name of its own (trials): the host's is not the trial's business. */
  readonly hostname?: string;
}

export function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

function present(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((path) => existsSync(path)))];
}

function maskArgs(policy: ConfinementPolicy): string[] {
  // Inside the work tree (what the policy makes writable) a `.env` is the tree's own.
  const writable = [...policy.writable, ...(policy.mounted ?? []).filter((mount) => mount.access === 'write').map((mount) => mount.to)];
  const shown = [...policy.readable, ...policy.readOnlyOver, ...writable];
  // Under a hidden folder nothing is there to mask, unless the policy shows it again.
  const masks = present(policy.masked).filter(
    (path) =>
      !writable.some((open) => inside(path, open)) && !(policy.hidden.some((folder) => inside(path, folder)) && !shown.some((open) => inside(path, open))),
  );
  return masks.flatMap((path) => (statSync(path).isDirectory() ? ['--tmpfs', path, '--remount-ro', path] : ['--ro-bind', '/dev/null', path]));
}

/**
 * bubblewrap's arguments for a policy. Every namespace is new but, when the policy shares it, the
 * network: a new pid namespace whose init is bubblewrap, so when the command exits every process it
 * started is killed, detached or not; `--die-with-parent` ends all of it if the caller dies; no
 * capability is kept (as root too). The system is read-only; what the policy makes writable is all
 * that is.
 */
export function confinementArgs(policy: ConfinementPolicy): string[] {
  return [
    '--unshare-all',
    ...(policy.network === 'shared' ? ['--share-net'] : []),
    '--die-with-parent',
    ...(policy.newSession ? ['--new-session'] : []),
    '--cap-drop',
    'ALL',
    ...(policy.hostname !== undefined ? ['--hostname', policy.hostname] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...policy.hidden.flatMap((folder) => ['--tmpfs', folder]),
    ...present(policy.readable).flatMap((path) => ['--ro-bind', path, path]),
    ...present(policy.writable).flatMap((path) => ['--bind', path, path]),
    ...present(policy.readOnlyOver).flatMap((path) => ['--ro-bind', path, path]),
    ...(policy.mounted ?? []).flatMap((mount) => {
      const verb = mount.access === 'write' ? '--bind' : '--ro-bind';
      return [mount.optional === true ? `${verb}-try` : verb, mount.from, mount.to];
    }),
    ...maskArgs(policy),
    ...Object.entries(policy.env ?? {}).flatMap(([name, value]) => ['--setenv', name, value]),
    '--chdir',
    policy.cwd,
    '--',
  ];
}

/**
 * Where credentials live in a home folder (relative to it): the folders and files a confined trial
 * must never read, though the rest of HOME (toolchains under ~/.cargo, ~/.pyenv, ~/.rustup, corepack's
 * cache) stays readable. The same list Anthropic's sandbox runtime denies, and the cloud CLIs' folders.
 */
const CREDENTIAL_PLACES: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/doctl',
  '.config/op',
  '.oci',
  '.kube',
  '.docker',
  '.terraform.d',
  '.npmrc',
  '.yarnrc',
  '.pypirc',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.password-store',
  '.local/share/keyrings',
  '.claude',
  '.claude.json',
  '.codex',
];

/** `.env`, `.env.local`, `.envrc` …: the files a project keeps its keys in. */
function envFilesIn(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.filter((name) => name === '.env' || name.startsWith('.env.') || name === '.envrc').map((name) => join(folder, name));
}

function ancestors(path: string): string[] {
  const folders: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    folders.push(current);
    if (dirname(current) === current) return folders;
  }
}

/**
 * What a trial must not read of the host: the credential places of each home folder, `.env` files
 * and the gate's own state (`.holdfast/`) in the home folder and in every folder above the places
 * named in `near` (the work tree, holdfast's own folder, the repository a task comes from). A `.env`
 * elsewhere on the disk, not above any of them, is not found: a limit written in docs/containment.md.
 */
export function credentialPlaces(homes: readonly string[], near: readonly string[]): string[] {
  const places = homes.filter((home) => home !== '' && home !== '/').flatMap((home) => CREDENTIAL_PLACES.map((place) => join(home, place)));
  const folders = [...new Set([...homes.filter((home) => home !== ''), ...near.flatMap(ancestors)])];
  for (const folder of folders) places.push(...envFilesIn(folder), join(folder, '.holdfast'));
  return [...new Set(places)];
}

/** A variable whose name says it holds a secret: tokens, keys, passwords, credentials, session cookies. */
function secretLookingName(name: string): boolean {
  return (
    /(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|SESSION|COOKIE)/i.test(name) ||
    /(^|_)KEY$/i.test(name) ||
    /^(AWS|AZURE|GCP|GOOGLE|GH|GITHUB|NPM_CONFIG_\/\/)/i.test(name)
  );
}

/** The environment a confined process starts with: as given, or without its secret-looking variables. */
export function confinedEnvironment(policy: Pick<ConfinementPolicy, 'secretVariables'>, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (policy.secretVariables === 'kept') return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !secretLookingName(name)));
}

/**
 * A program found on PATH as a shell would find it (or, with a slash, as given, relative to `cwd`):
 * the first executable candidate. The one lookup of the house: exec's agent, bubblewrap, a harness
 * binary, a trial's test runner.
 */
export function findProgram(name: string, env: NodeJS.ProcessEnv, cwd: string = process.cwd()): string | undefined {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/')) {
    const path = isAbsolute(name) ? name : join(cwd, name);
    return executable(path) ? path : undefined;
  }
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** bwrap on PATH, if it is there and executable. */
export function findBubblewrap(env: NodeJS.ProcessEnv): string | undefined {
  return findProgram('bwrap', env);
}

/** What to tell a person whose machine has no bubblewrap, or one that cannot make namespaces. */
export const BUBBLEWRAP_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap) and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; Ubuntu 24.04: sysctl kernel.apparmor_restrict_unprivileged_userns=0; in a container, run it with --security-opt seccomp=unconfined)';

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
