import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonFile } from '@holdfast/core/command';
import { findProgram } from '@holdfast/gate';

/** Whether a Node runs `.ts` files itself (22.18+, 23.6+), or behind a flag (22.6+); an unknown one is taken not to. */
export function nodeStripsTypes(version: string | undefined): boolean {
  if (version === undefined) return false;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 6);
}

const versions = new Map<string, string | undefined>();

/**
 * The version of the `node` a command started with this PATH runs, which is not always the node running
 * holdfast (holdfast on Node 24 from a cache, the team's `npm test` on the machine's Node 20). Established
 * by running that node once (per binary) outside the sandbox, so only a node from outside the repository:
 * one inside it (a `.venv/bin/node`) is a program the repository names, and its version is left unknown.
 * Undefined when unknown or there is no node; callers then preload the hook, which works on every line.
 */
export function commandNodeVersion(path: string, repository?: string): string | undefined {
  const found = findProgram('node', { PATH: path });
  if (found === undefined) return undefined;
  let real: string;
  try {
    real = realpathSync(found);
    if (repository !== undefined) {
      const from = relative(realpathSync(repository), real);
      if (from !== '..' && !from.startsWith(`..${sep}`) && !isAbsolute(from)) return undefined;
    }
  } catch {
    return undefined;
  }
  if (!versions.has(real)) {
    let version: string | undefined;
    try {
      version = execFileSync(real, ['-p', 'process.versions.node'], { encoding: 'utf8', env: {}, timeout: 60_000 }).trim();
    } catch {
      version = undefined;
    }
    versions.set(real, version !== undefined && /^\d+\.\d+\.\d+$/.test(version) ? version : undefined);
  }
  return versions.get(real);
}

// From dist/sandbox/ and from src/sandbox/ (tests) alike: the built hook, which `npm run build` writes.
const HOOK_FOLDER = fileURLToPath(new URL('../../dist/sandbox', import.meta.url)).replace(/\/$/, '');

/**
 * NODE_OPTIONS for a sandbox command: on a Node without type stripping, preload holdfast's
 * stripping hook so TypeScript tests run; otherwise nothing (Node does it natively).
 */
export function typescriptNodeOptions(version: string | undefined): string | undefined {
  if (nodeStripsTypes(version)) return undefined;
  return `--import=${JSON.stringify(join(HOOK_FOLDER, 'typescript-register.js'))}`;
}

/** Where Node finds package `name` from `folder`: the first `node_modules/name` up the tree, as Node walks it. */
function lookupPackage(folder: string, name: string): string | undefined {
  for (let current = folder; ; current = dirname(current)) {
    const candidate = join(current, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

function dependenciesOf(packageDir: string): string[] {
  const manifest = readJsonFile(join(packageDir, 'package.json'));
  if (typeof manifest !== 'object' || manifest === null) return [];
  const names = (field: string) => Object.keys(((manifest as Record<string, unknown>)[field] as Record<string, string> | undefined) ?? {});
  return [...names('dependencies'), ...names('optionalDependencies')];
}

/**
 * What a sandboxed command must read of holdfast for the type-stripping hook: the hook's own
 * folder and the packages it loads (rolldown, its native binding), each at the path Node looks
 * it up by, so resolution inside the sandbox is the same as outside. Nothing else of holdfast's
 * folder (its .env, its run files) is visible. Empty on a Node that strips types itself.
 */
export function typescriptPreloadPaths(version: string | undefined): string[] {
  if (nodeStripsTypes(version) || !existsSync(HOOK_FOLDER)) return [];
  const paths = [HOOK_FOLDER];
  const pending = ['rolldown'];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const found = lookupPackage(HOOK_FOLDER, name);
    // An optional dependency for another platform is simply not installed.
    if (found === undefined) continue;
    paths.push(found);
    pending.push(...dependenciesOf(found));
  }
  return paths;
}
