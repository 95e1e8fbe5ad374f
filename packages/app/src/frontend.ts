import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pathExists } from './path-exists.js';

/** The app package's folder (web/, vite.config.ts, dist/web): one up from this file, in src/ or dist/. */
export function appRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..');
}

/** Where the UI's `vite build` writes (its outDir), and where production serves from. */
export function defaultAssetsDir(root = appRoot()): string {
  return join(root, 'dist', 'web');
}

async function viteConfigFile(root: string): Promise<string | false> {
  for (const name of ['vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs']) {
    const path = join(root, name);
    if (await pathExists(path)) return path;
  }
  return false;
}

export async function assetsBuilt(assetsDir: string): Promise<boolean> {
  return pathExists(join(assetsDir, 'index.html'));
}

/** Builds the web app with Vite into `assetsDir`. Vite is a development dependency, so it is loaded only here. */
export async function buildWebApp(root: string, assetsDir: string): Promise<void> {
  const vite = await import('vite');
  await vite.build({
    configFile: await viteConfigFile(root),
    root: join(root, 'web'),
    logLevel: 'warn',
    build: { outDir: assetsDir, emptyOutDir: true },
  });
}

function isPageRequest(request: Request): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.path.startsWith('/api/');
}

/**
 * Production: the built assets, and index.html for any other page path (the app routes in the
 * browser). Hashed assets are cached for good; index.html never, so a rebuild shows at once.
 */
export function staticFrontend(assetsDir: string): RequestHandler {
  const files = express.static(assetsDir, {
    index: false,
    setHeaders: (response, path) => {
      if (path.includes(`${join('assets', '')}`)) response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  const index = join(assetsDir, 'index.html');
  return (request: Request, response: Response, next: NextFunction) => {
    if (!isPageRequest(request)) {
      next();
      return;
    }
    files(request, response, async () => {
      if (!(await assetsBuilt(assetsDir))) {
        response
          .status(503)
          .type('text/plain; charset=utf-8')
          .send(`The web app is not built (no ${index}).\nRun \`holdfast serve --build-web\` (or \`npm start\`), or \`holdfast serve --dev\` in a clone.\n`);
        return;
      }
      response.setHeader('Cache-Control', 'no-cache');
      response.sendFile(index);
    });
  };
}

export interface DevFrontend {
  readonly handler: RequestHandler;
  close(): Promise<void>;
}

/** Development: Vite as middleware in this process, its hot-reload socket on the same HTTP server. */
export async function viteFrontend(root: string, server: Server): Promise<DevFrontend> {
  const vite = await import('vite');
  const dev = await vite.createServer({
    configFile: await viteConfigFile(root),
    root: join(root, 'web'),
    appType: 'spa',
    server: { middlewareMode: true, ws: { server } },
  });
  return { handler: dev.middlewares as unknown as RequestHandler, close: () => dev.close() };
}
