import type { Action } from '@holdfast/core/contract';

/**
 * The bytes `holdfast install` of the holdfast running this hook writes at a project path over what
 * the file held before (undefined before: it did not exist); undefined for a path install writes no
 * committed file at. Built by the gate itself from its own install code, node and hook entry (never
 * from a commit message, a variable or a file the agent can write).
 */
export type InstallOutput = (path: string, before: Buffer | undefined) => Buffer | undefined;

/** The install's own files among a change, and the actions left to judge without them. */
export interface InstallSplit {
  readonly actions: Action[];
  /** The written paths byte-identical to what install writes there: the install itself, not judged by the rules. */
  readonly installed: string[];
}

/**
 * Takes out of a change each write whose bytes are exactly what `holdfast install` writes at that
 * path over the file's previous content. Why: an agent's settings file lives outside any scope a
 * rulebook allows, so committing the install was refused by the gate it installs; an altered copy
 * (one byte off, another hook command, `--observe`) is not the install and stays judged.
 */
export function withoutInstallFiles(
  actions: readonly Action[],
  install: InstallOutput | undefined,
  bytes: { readonly after: (path: string) => Buffer | undefined; readonly before: (path: string) => Buffer | undefined },
): InstallSplit {
  if (install === undefined) return { actions: [...actions], installed: [] };
  const kept: Action[] = [];
  const installed: string[] = [];
  for (const action of actions) {
    if (action.type === 'write') {
      const expected = install(action.path, bytes.before(action.path));
      const staged = expected === undefined ? undefined : bytes.after(action.path);
      if (expected !== undefined && staged !== undefined && staged.equals(expected)) {
        installed.push(action.path);
        continue;
      }
    }
    kept.push(action);
  }
  return { actions: kept, installed };
}
