import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holdfast is installed in: the nearest one above the gate whose node_modules holds
 * `@holdfast/gate` (a project that ran `npm install holdfast`, or the workspace of a clone). The hook
 * runs from there and loads its npm dependencies from there, so a confined agent must be able to
 * read it and must not write it. Found from the gate's own location, never by a fixed climb.
 */
export function holdfastInstallation(): string {
  const entry = hookEntryPath();
  const gate = existsSync(entry) ? realpathSync(entry) : entry;
  for (let dir = dirname(gate); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@holdfast', 'gate'))) return dir;
    if (dirname(dir) === dir) return dirname(gate);
  }
}

/** The folder Node would load `name` from when required by the package in `from` (its node_modules, then each parent's). */
function dependencyFolder(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

function dependencyNames(folder: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    const names = (field: unknown) => (typeof field === 'object' && field !== null ? Object.keys(field) : []);
    // Optional peers too (the core's ast-grep language packages): where installed, the hook loads them.
    return [...names(manifest.dependencies), ...names(manifest.optionalDependencies), ...names(manifest.peerDependencies)];
  } catch {
    return [];
  }
}

/**
 * Every package folder the package in `folder` loads at run time: itself and its dependencies,
 * transitively, as Node resolves them. When holdfast is installed inside the project (`npm install
 * holdfast`), these are the folders `holdfast exec` must mount read-only: an agent that rewrote
 * `node_modules/yaml` or `node_modules/@holdfast/core` would rewrite the gate.
 */
export function packageClosure(folder: string): string[] {
  if (!existsSync(join(folder, 'package.json'))) return [];
  const seen = new Set<string>([realpathSync(folder)]);
  const queue = [...seen];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const name of dependencyNames(next)) {
      const found = dependencyFolder(name, next);
      if (found === undefined || seen.has(found)) continue;
      seen.add(found);
      queue.push(found);
    }
  }
  return [...seen];
}

/**
 * The environment's word on the hook entry and the node to run it with: an installed agent command (which names
 * no path) runs these when set. `holdfast exec` sets them to its own copy inside the sandbox.
 */
export const HOOK_ENTRY_VARIABLE = 'HOLDFAST_HOOK_ENTRY';
export const HOOK_NODE_VARIABLE = 'HOLDFAST_HOOK_NODE';

/** The small hook entry `npm run build` bundles (two levels under dist/, like this room under src/, so relative paths agree). */
export function hookEntryPath(): string {
  // From src/exec/ or dist/exec/ the bundle is at ../../dist/hook-bundle/; from inside the bundle it sits beside this code.
  const here = import.meta.url.includes('/dist/hook-bundle/') ? './hook.cjs' : '../../dist/hook-bundle/hook.cjs';
  return fileURLToPath(new URL(here, import.meta.url));
}
