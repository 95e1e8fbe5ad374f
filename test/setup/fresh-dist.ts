import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Tests that run the built command (bin/holdfast.js, the installed hook) must not run an old build.
 * When any input of `npm run build` is newer than its last output (packages/gate/dist/hook-bundle/hook.cjs,
 * written at the very end), or there is no build, the build runs once here before any test.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = readdirSync(join(ROOT, 'packages'));
const INPUTS = [
  'scripts',
  'package.json',
  'tsconfig.base.json',
  'bench/src',
  'bench/tsconfig.json',
  ...PACKAGES.flatMap((name) => [`packages/${name}/src`, `packages/${name}/package.json`, `packages/${name}/tsconfig.json`]),
  'packages/gate/scripts',
];
const LAST_OUTPUT = join(ROOT, 'packages', 'gate', 'dist', 'hook-bundle', 'hook.cjs');

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

function builtAt(): number {
  try {
    return statSync(LAST_OUTPUT).mtimeMs;
  } catch {
    return -Infinity;
  }
}

export function setup(): void {
  const changed = Math.max(...INPUTS.map((input) => newestChange(join(ROOT, input))));
  if (changed <= builtAt()) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
