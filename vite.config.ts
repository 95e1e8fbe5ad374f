import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

// The web app lives in web/ and builds into dist/web, which `holdfast serve` hands out in production.
// It imports the shared contract and reducer from ../src, so the dev server may read the whole project.
export default defineConfig({
  root: `${projectRoot}web`,
  base: '/',
  plugins: [react()],
  build: {
    outDir: `${projectRoot}dist/web`,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    fs: { allow: [projectRoot] },
  },
});
