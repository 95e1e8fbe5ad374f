import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built holdfast (`npm run build` first), run as a user would run it. */
export const HOLDFAST_BIN = fileURLToPath(new URL('../../../../cli/bin/holdfast.js', import.meta.url));

/** The shipped rulebook, which these scenarios gate with, configured the way a project names its own. */
export const SHIPPED_RULEBOOK = fileURLToPath(new URL('../../../../../rulebooks/default.yaml', import.meta.url));

/** `holdfast ARGS…` in `cwd`; throws with its stderr when it exits non-zero. */
export function holdfast(cwd: string, ...args: string[]): string {
  return holdfastOn(process.execPath, cwd, ...args);
}

/** The same, run by another node (an installed hook command then runs that node too). */
export function holdfastOn(node: string, cwd: string, ...args: string[]): string {
  return execFileSync(node, [HOLDFAST_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOLDFAST_RULEBOOK: process.env.HOLDFAST_RULEBOOK ?? SHIPPED_RULEBOOK },
  });
}
