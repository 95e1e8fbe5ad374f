import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** How commands in a sandbox are confined. Results say which was in force, so a reader knows what "ran" meant. */
export type Isolation =
  | { readonly kind: 'bubblewrap'; readonly bwrap: string; readonly detail: string }
  | { readonly kind: 'none'; readonly detail: string };

export type IsolationMode = 'auto' | 'none';

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

/**
 * bubblewrap's arguments: no network (and no other shared namespace), the system read-only, a
 * private /tmp, and only the work tree and the command's home writable.
 */
export function bubblewrapArgs(writable: readonly string[], cwd: string, readable: readonly string[] = []): string[] {
  const binds = writable.flatMap((path) => ['--bind', path, path]);
  // Mounted again after the private /tmp, so a holdfast installed under /tmp stays visible (read-only).
  const readOnly = readable.filter((path) => path === '/tmp' || path.startsWith('/tmp/')).flatMap((path) => ['--ro-bind', path, path]);
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    ...readOnly,
    ...binds,
    '--chdir', cwd,
    '--',
  ];
}

export function wrapCommand(
  isolation: Isolation,
  argv: readonly string[],
  writable: readonly string[],
  cwd: string,
  readable: readonly string[] = [],
): { file: string; args: string[] } {
  if (isolation.kind === 'bubblewrap') return { file: isolation.bwrap, args: [...bubblewrapArgs(writable, cwd, readable), ...argv] };
  const [file, ...args] = argv;
  return { file: file!, args };
}

/**
 * bubblewrap when it is installed and can make namespaces here (containers often forbid it);
 * otherwise none, with the reason. Probed once per run with the very arguments commands get.
 */
export async function detectIsolation(mode: IsolationMode = 'auto'): Promise<Isolation> {
  if (mode === 'none') return { kind: 'none', detail: 'isolation was turned off; commands ran with the network available' };
  const bwrap = findExecutable('bwrap');
  if (bwrap === undefined) {
    return { kind: 'none', detail: 'bubblewrap (bwrap) is not installed; commands ran without network isolation' };
  }
  const probe = mkdtempSync(join(tmpdir(), 'holdfast-bwrap-probe-'));
  try {
    const truePath = findExecutable('true') ?? '/bin/true';
    const failure = await new Promise<string | undefined>((resolve) => {
      execFile(bwrap, [...bubblewrapArgs([probe], probe), truePath], { timeout: 10_000, env: { PATH: process.env.PATH ?? '' } }, (error, _stdout, stderr) =>
        resolve(error === null ? undefined : String(stderr).trim() || error.message),
      );
    });
    if (failure !== undefined) {
      return { kind: 'none', detail: `bubblewrap is installed but cannot isolate here (${failure}); commands ran without network isolation` };
    }
    return { kind: 'bubblewrap', bwrap, detail: 'bubblewrap: no network, read-only system, only the repository writable' };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
