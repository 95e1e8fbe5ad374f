// `npm install` / `npm ci` in a clone builds dist/ (what bin/holdfast.js runs). A production install
// (`npm ci --omit=dev`) has no TypeScript to build with: it says so and succeeds, since a published
// package carries its dist/ already and a clone that wants one installs the dev dependencies.
// The installed package has no src/ to build (npm may list this script for it): nothing to do.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

if (!existsSync(new URL('../packages/core/src', import.meta.url))) process.exit(0);
const require = createRequire(import.meta.url);
try {
  require.resolve('typescript/package.json');
} catch {
  console.warn('holdfast: TypeScript is not installed (a production install), so dist/ is not built. Run `npm ci` with dev dependencies to build it.');
  process.exit(0);
}
execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
