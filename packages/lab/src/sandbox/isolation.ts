import { execFile } from 'node:child_process';
import { accessSync, constants, lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { typescriptPreloadPaths } from './typescript-support.js';

/** How commands in a sandbox are confined. Results say which was in force, so a reader knows what "ran" meant. */
export type Isolation = { readonly kind: 'bubblewrap'; readonly bwrap: string; readonly detail: string } | { readonly kind: 'none'; readonly detail: string };

/**
 * `auto`: bubblewrap when it works here, otherwise none (and a sandbox manager then refuses to run
 * commands unless told it may). `none`: the person asked for no isolation (`--unsafe-no-isolation`).
 */
export type IsolationMode = 'auto' | 'none';

/** What to tell a person whose machine cannot isolate: the package, and the kernel setting bubblewrap needs. */
export const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or in a container run it with --security-opt seccomp=unconfined)';

export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function under(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function realOrUndefined(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** What a sandboxed command may see of the machine: the toolchain, read-only, and nothing else. */
export interface Toolchain {
  /** Folders bound read-only at the same path. */
  readonly folders: readonly string[];
  /** Top-level links of a merged-/usr system (/bin → usr/bin), recreated as links. */
  readonly links: readonly { readonly path: string; readonly target: string }[];
  /** PATH inside the sandbox: where node, npm and git live, then the system's bin folders. */
  readonly path: string;
}

const SYSTEM_TOP = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** The few /etc entries the dynamic linker and Debian's alternatives need; no passwd, hosts, hostname or resolver. */
const SYSTEM_ETC = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives'];

/**
 * /usr and the top-level system folders, plus node, npm and git wherever they are installed (a
 * node under ~/.nvm brings only its own prefix, never the rest of the home folder).
 */
export function findToolchain(searchPath = process.env.PATH ?? ''): Toolchain {
  const folders: string[] = ['/usr'];
  const links: { path: string; target: string }[] = [];
  for (const top of [...SYSTEM_TOP, ...SYSTEM_ETC]) {
    const stats = lstatSync(top, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (stats.isSymbolicLink()) links.push({ path: top, target: readlinkSync(top) });
    else folders.push(top);
  }
  const home = homedir();
  const binFolders: string[] = [];
  const tools = [process.execPath, findExecutable('node', searchPath), findExecutable('npm', searchPath), findExecutable('git', searchPath)];
  for (const tool of tools) {
    const real = realOrUndefined(tool);
    if (real === undefined || tool === undefined) continue;
    binFolders.push(dirname(tool), dirname(real));
    if (folders.some((folder) => under(folder, real))) continue;
    // The install prefix (…/bin/node → …), unless that is / or a home folder itself: then only the binary's folder.
    const prefix = dirname(dirname(real));
    const wide = prefix === '/' || prefix === home || dirname(prefix) === '/home';
    folders.push(wide ? dirname(real) : prefix);
  }
  const path = [...new Set([...binFolders, '/usr/local/bin', '/usr/bin', '/bin'])].join(delimiter);
  return { folders: [...new Set(folders)], links, path };
}

/** Everything a sandboxed command is given: its folders, and which of them it may write. */
export interface SandboxMounts {
  /** Bound read-write at the same path: the repository's work tree and the command's home. */
  readonly writable: readonly string[];
  /** Bound read-only at the same path: a node_modules snapshot, holdfast's type-stripping hook. */
  readonly readable: readonly string[];
  readonly cwd: string;
}

/**
 * bubblewrap's arguments. The root is an empty file system made read-only at the end: on it only
 * the toolchain (read-only), a private /tmp, a fresh /dev, a /proc of the sandbox's own pid
 * namespace, and the mounts. No network, no host name, no other namespace shared, no capability.
 */
export function bubblewrapArgs(mounts: SandboxMounts, toolchain: Toolchain = findToolchain()): string[] {
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'holdfast-sandbox',
    ...toolchain.folders.flatMap((folder) => ['--ro-bind', folder, folder]),
    ...toolchain.links.flatMap((link) => ['--symlink', link.target, link.path]),
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    // Mounts under /tmp come after the private /tmp, so they sit on it rather than under it.
    '--tmpfs',
    '/tmp',
    ...mounts.readable.flatMap((path) => ['--ro-bind', path, path]),
    ...mounts.writable.flatMap((path) => ['--bind', path, path]),
    '--remount-ro',
    '/',
    '--chdir',
    mounts.cwd,
    '--',
  ];
}

export function wrapCommand(isolation: Isolation, argv: readonly string[], mounts: SandboxMounts): { file: string; args: string[] } {
  if (isolation.kind === 'bubblewrap') return { file: isolation.bwrap, args: [...bubblewrapArgs(mounts), ...argv] };
  const [file, ...args] = argv;
  return { file: file!, args };
}

export interface DetectOptions {
  /** Where to look for bwrap (default: PATH); tests pass one without it. */
  readonly searchPath?: string;
}

/**
 * bubblewrap when it is installed and can make namespaces here (containers often forbid it);
 * otherwise none, with the reason. Probed with the very mounts commands get, and a probe that
 * must fail (writing outside the repository) so a bubblewrap that binds but does not confine is
 * not taken for isolation.
 */
export async function detectIsolation(mode: IsolationMode = 'auto', options: DetectOptions = {}): Promise<Isolation> {
  if (mode === 'none') return { kind: 'none', detail: 'isolation was turned off with --unsafe-no-isolation: commands ran as you, with your files and network' };
  const bwrap = findExecutable('bwrap', options.searchPath ?? process.env.PATH ?? '');
  if (bwrap === undefined) return { kind: 'none', detail: 'bubblewrap (bwrap) is not installed' };
  const probe = mkdtempSync(join(tmpdir(), 'holdfast-bwrap-probe-'));
  try {
    const toolchain = findToolchain();
    const mounts = { writable: [probe], readable: typescriptPreloadPaths(), cwd: probe };
    const script = "try { require('fs').writeFileSync('/holdfast-probe', ''); process.exit(3) } catch { process.exit(0) }";
    const failure = await new Promise<string | undefined>((resolve) => {
      execFile(
        bwrap,
        [...bubblewrapArgs(mounts, toolchain), process.execPath, '-e', script],
        { timeout: 20_000, env: { PATH: toolchain.path } },
        (error, _stdout, stderr) => resolve(error === null ? undefined : String(stderr).trim() || error.message),
      );
    });
    if (failure !== undefined) return { kind: 'none', detail: `bubblewrap is installed but cannot isolate here (${failure})` };
    return {
      kind: 'bubblewrap',
      bwrap,
      detail: 'bubblewrap: no network, own pid namespace, read-only toolchain, private /tmp, only the repository writable',
    };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
