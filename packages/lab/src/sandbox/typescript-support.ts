import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonFile } from '@holdfast/core/command';

/** Whether this Node runs `.ts` files itself (22.18+, 23.6+), or behind a flag (22.6+). */
export function nodeStripsTypes(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 6);
}

// From dist/sandbox/ and from src/sandbox/ (tests) alike: the built hook, which `npm run build` writes.
const HOOK_FOLDER = fileURLToPath(new URL('../../dist/sandbox', import.meta.url)).replace(/\/$/, '');

/**
 * NODE_OPTIONS for a sandbox command: on a Node without type stripping, preload holdfast's
 * stripping hook so TypeScript tests run; otherwise nothing (Node does it natively).
 */
export function typescriptNodeOptions(version: string = process.versions.node): string | undefined {
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
export function typescriptPreloadPaths(version: string = process.versions.node): string[] {
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
