// Bundles the gate's hook entry (src/entry/hook.ts) with everything it imports, the core's built code
// and npm dependencies included, into dist/hook-bundle/: one file to load instead of dozens, so a cold hook
// decision costs little more than node itself. Lazily imported modules (the secret scanner, the
// rulebook parser) stay separate chunks. The core's shipped rulebook is found through its package
// (@holdfast/core/rulebooks/…), so it resolves the same from inside the bundle.
import { copyFile, rm } from 'node:fs/promises';
import { build } from 'rolldown';

const root = new URL('..', import.meta.url);
// The modules of a decision: holdfast's gate and rules (glob matching included), not the schemas,
// the YAML/zod rulebook parser or the git pre-commit path, which load on their own when needed.
const DECIDE =
  /[\\/]gate[\\/]src[\\/]|[\\/]core[\\/](src|dist)[\\/](rules|command|reply|shell)[\\/]|[\\/]core[\\/](src|dist)[\\/]contract[\\/](errors|package-version)\.|[\\/]node_modules[\\/]unbash[\\/]/;
const LAZY = /[\\/](load-rulebook|parse-rulebook|render-rulebook|rulebook-error|pre-commit|value-at)\./;
await rm(new URL('dist/hook-bundle/', root), { recursive: true, force: true });
await build({
  input: { decide: new URL('src/entry/hook.ts', root).pathname },
  platform: 'node',
  // The entry exports main() and runHookProcess (for the cache warm-up): let its chunk hold the whole
  // decision group instead of a facade that loads it from a second file.
  preserveEntrySignatures: 'allow-extension',
  // npm packages load from node_modules as usual, except unbash (every shell call parses); picomatch
  // is loaded only when a glob is not in the rulebook cache (core's glob.ts requires it on first use).
  // The workspace's own packages (@holdfast/core) are bundled too.
  external: (id) => /^[^./]/.test(id) && !id.startsWith('node:') && !/^(unbash|@holdfast\/)/.test(id) && !id.startsWith('/'),
  logLevel: 'warn',
  // By design: the decide chunk group holds the modules hook.ts also imports dynamically (the group is the point: one
  // file per decision), so rolldown's INEFFECTIVE_DYNAMIC_IMPORT is expected for exactly those. Only that code is
  // silenced; every other warning is printed.
  onLog(level, log, handler) {
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    handler(level, log);
  },
  output: {
    dir: new URL('dist/hook-bundle/', root).pathname,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    // HOLDFAST_HOOK_NO_MINIFY=1 keeps function names, for a `--cpu-prof` of the hook that reads.
    minify: process.env.HOLDFAST_HOOK_NO_MINIFY !== '1',
    // Every module a decision may need in one chunk (one file to read, not a dozen); what only a
    // rulebook cache miss or the git hook needs stays in chunks of its own.
    codeSplitting: { groups: [{ name: 'decide', test: (id) => DECIDE.test(id) && !LAZY.test(id) }] },
  },
});
// The entry the installed command runs: a few lines that ask node's own compile cache (a public API
// from node 22.1 on; on node 20 the bundle is compiled as usual) and then run the bundled decision.
await copyFile(new URL('scripts/hook-entry.cjs', root), new URL('dist/hook-bundle/hook.cjs', root));
