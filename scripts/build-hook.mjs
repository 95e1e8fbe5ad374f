// Bundles the hook entry (src/hook/hook.ts) with everything it imports, npm dependencies included,
// into dist/hook/: one file to load instead of dozens, so a cold hook decision costs little more than
// node itself. Lazily imported modules (the secret scanner, the rulebook parser) stay separate chunks.
// dist/hook/ sits one level under dist/ like src/gate/ under src/, so paths relative to a module
// (the shipped rulebook, package.json) resolve the same in the bundle.
import { rm } from 'node:fs/promises';
import { build } from 'rolldown';

const root = new URL('../', import.meta.url);
await rm(new URL('dist/hook/', root), { recursive: true, force: true });
await build({
  input: { hook: new URL('src/hook/hook.ts', root).pathname },
  platform: 'node',
  logLevel: 'warn',
  output: { dir: new URL('dist/hook/', root).pathname, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs', minify: true },
});
