import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hookEntryPath } from './hook-command.js';

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
