import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUBBLEWRAP_HINT, confinementArgs, credentialPlaces, findProgram } from '@holdfast/gate';
import type { ConfinementPolicy } from '@holdfast/gate';
import { commandNodeVersion, typescriptPreloadPaths } from './typescript-support.js';

// holdfast's own folder (from src/sandbox/ and dist/sandbox/ alike): its `.env` holds the run's model keys.
const HOLDFAST_ROOT = fileURLToPath(new URL('../../../..', import.meta.url)).replace(/\/$/, '');

/** How commands in a sandbox are confined. Results say which was in force, so a reader knows what "ran" meant. */
export type Isolation = { readonly kind: 'bubblewrap'; readonly bwrap: string; readonly detail: string } | { readonly kind: 'none'; readonly detail: string };

/**
 * `auto`: bubblewrap when it works here, otherwise none (and a sandbox manager then refuses to run
 * commands unless told it may). `none`: the person asked for no isolation (`--unsafe-no-isolation`).
 */
export type IsolationMode = 'auto' | 'none';

/** Everything a sandboxed command is given: its folders, and which of them it may write. */
export interface SandboxMounts {
  /** Bound read-write at the same path: the repository's work tree and the command's home. */
  readonly writable: readonly string[];
  /** Bound read-only at the same path: a node_modules snapshot, holdfast's type-stripping hook. */
  readonly readable: readonly string[];
  /** Installed dependencies bound read-only into the work tree (the repository's node_modules, .venv). */
  readonly dependencies?: readonly { readonly from: string; readonly to: string }[];
  /** Folders emptied besides /tmp: the run's sandbox folder, so other rounds and the bases stay unseen. */
  readonly hidden?: readonly string[];
  readonly cwd: string;
}

/**
 * A trial's confinement (a model-written command, an acceptance check): the host file system
 * readable as the user sees it, read-only, so the repository's own toolchain runs (pyenv, rustup,
 * corepack, a Go or Cargo module cache); writable only the work tree, the command's home and a
 * private /tmp; the host's credential places, `.env` files above the work tree and holdfast's own
 * folder, and `.holdfast/` masked; the network only loopback; no secret-looking variable; a host
 * name and a pid namespace of its own.
 */
export function trialPolicy(mounts: SandboxMounts): ConfinementPolicy {
  const homes = [...new Set([homedir(), process.env.HOME ?? ''].filter((home) => home !== ''))];
  return {
    network: 'loopback',
    secretVariables: 'dropped',
    hidden: ['/tmp', ...(mounts.hidden ?? [])],
    readable: mounts.readable,
    writable: mounts.writable,
    readOnlyOver: [],
    mounted: (mounts.dependencies ?? []).map((dependency) => ({ from: dependency.from, to: dependency.to, access: 'read' as const })),
    masked: credentialPlaces(homes, [mounts.cwd, process.cwd(), HOLDFAST_ROOT]),
    cwd: mounts.cwd,
    newSession: true,
    hostname: 'holdfast-sandbox',
  };
}

export function bubblewrapArgs(mounts: SandboxMounts): string[] {
  return confinementArgs(trialPolicy(mounts));
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
  const bwrap = findProgram('bwrap', { PATH: options.searchPath ?? process.env.PATH ?? '' });
  if (bwrap === undefined) return { kind: 'none', detail: 'bubblewrap (bwrap) is not installed' };
  const probe = mkdtempSync(join(tmpdir(), 'holdfast-bwrap-probe-'));
  try {
    const mounts = { writable: [probe], readable: typescriptPreloadPaths(commandNodeVersion(process.env.PATH ?? '')), cwd: probe };
    const script = "try { require('fs').writeFileSync('/holdfast-probe', ''); process.exit(3) } catch { process.exit(0) }";
    const failure = await new Promise<string | undefined>((resolve) => {
      execFile(
        bwrap,
        [...bubblewrapArgs(mounts), process.execPath, '-e', script],
        { timeout: 20_000, env: { PATH: process.env.PATH ?? '' } },
        (error, _stdout, stderr) => resolve(error === null ? undefined : String(stderr).trim() || error.message),
      );
    });
    if (failure !== undefined) return { kind: 'none', detail: `bubblewrap is installed but cannot isolate here (${failure})` };
    return {
      kind: 'bubblewrap',
      bwrap,
      detail: 'bubblewrap: loopback network only, own pid namespace, the system read-only with credentials hidden, private /tmp, only the repository writable',
    };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** What to tell a person whose machine cannot isolate: the one hint of the house (the gate's). */
export const INSTALL_HINT = BUBBLEWRAP_HINT;
