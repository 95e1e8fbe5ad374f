// `npm start`: say each step, build only what is out of date (`npm ci` already built dist/ through prepare), then
// serve the web app. The TypeScript build is incremental (tsc -b does nothing when dist/ matches the sources); the
// hook bundle is rebuilt only when the gate's build is newer than it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line) => console.log(`holdfast: ${line}`);
const run = (file, args) => execFileSync(file, args, { cwd: root, stdio: 'inherit' });

/** The newest modification time under a folder, leaving out one subfolder (0 when there is nothing). */
function newest(folder, skip) {
  if (!existsSync(folder)) return 0;
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !path.startsWith(skip)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

say('type-checking and building what changed since the last build (tsc -b; nothing to do right after npm ci)…');
const started = Date.now();
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/cli/tsconfig.json', 'bench/tsconfig.json']);
say(`TypeScript build up to date (${((Date.now() - started) / 1000).toFixed(1)} s).`);
const bundle = join(root, 'packages/gate/dist/hook-bundle/decide.cjs');
const gateBuilt = newest(join(root, 'packages/gate/dist'), join(root, 'packages/gate/dist/hook-bundle'));
if (!existsSync(bundle) || statSync(bundle).mtimeMs < gateBuilt) {
  say('bundling the gate hook (dist/hook-bundle)…');
  run(process.execPath, [join(root, 'packages/gate/scripts/build-hook.mjs')]);
} else say('the gate hook bundle is up to date.');
say('starting the web app (it is built first if dist/web is missing)…');
run(process.execPath, [join(root, 'packages/cli/bin/holdfast.js'), 'serve', '--build-web', ...process.argv.slice(2)]);
