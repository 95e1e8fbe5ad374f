import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { workspaceAliases } from '../../scripts/workspace-aliases.mjs';

const appRoot = fileURLToPath(new URL('.', import.meta.url));
const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

// The web app lives in web/ and builds into dist/web, which `holdfast serve` hands out in production.
// It imports the browser entries of the core and the lab from their source, so the dev server may
// read the whole workspace.
export default defineConfig({
  root: `${appRoot}web`,
  base: '/',
  plugins: [react()],
  resolve: { alias: workspaceAliases() },
  build: {
    outDir: `${appRoot}dist/web`,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    fs: { allow: [workspaceRoot] },
  },
});
