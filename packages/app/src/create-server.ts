import { createServer as createHttpServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { createJudgePool } from '@holdfast/lab/experiment';
import { canUseWorkers } from '@holdfast/lab/thread-pool';
import { createApp } from './create-app.js';
import { createSavedRunReader } from './saved-run-json.js';
import type { AppOptions, HoldfastApp } from './create-app.js';
import { appRoot, defaultAssetsDir, staticFrontend, viteFrontend } from './frontend.js';
import type { RunRegistry } from './live-run.js';

export interface ServerOptions extends Omit<AppOptions, 'frontend'> {
  /** Vite middleware with hot reload (a clone with dev dependencies), instead of the built assets. */
  readonly dev: boolean;
  /** Built web assets (default dist/web under the project root). */
  readonly assetsDir?: string;
  /** The project root, where web/ and vite.config.ts live. */
  readonly root?: string;
}

export interface HoldfastServer {
  /** `http://host:port`, with the real port when asked for port 0. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly http: Server;
  readonly runs: RunRegistry;
  readonly app: HoldfastApp['app'];
  /** Cancels unfinished runs (their files end `interrupted`), closes every stream, stops listening. */
  close(): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** One process: the API, the run streams, and the web app (Vite in development, built assets otherwise). */
export async function createServer(options: ServerOptions): Promise<HoldfastServer> {
  const root = options.root ?? appRoot();
  const http = createHttpServer();
  let frontend: RequestHandler;
  let closeFrontend = async (): Promise<void> => {};
  if (options.dev) {
    const dev = await viteFrontend(root, http);
    frontend = dev.handler;
    closeFrontend = () => dev.close();
  } else {
    frontend = staticFrontend(options.assetsDir ?? defaultAssetsDir(root));
  }
  // Replies are read and checked in worker threads: one pathological reply costs its round, not the server.
  const judges = options.judgeReply === undefined && canUseWorkers() ? createJudgePool() : undefined;
  const savedRuns = createSavedRunReader();
  const holdfast = createApp({ ...options, frontend, readSavedRunJson: savedRuns.read, ...(judges !== undefined ? { judgeReply: judges.judge } : {}) });
  http.on('request', holdfast.app);
  let address: AddressInfo;
  try {
    address = await listen(http, options.host, options.port);
  } catch (error) {
    await closeFrontend();
    await judges?.close();
    await savedRuns.close();
    throw error;
  }
  holdfast.setPort(address.port);
  return {
    url: `http://${urlHost(options.host)}:${address.port}`,
    host: options.host,
    port: address.port,
    http,
    runs: holdfast.runs,
    app: holdfast.app,
    async close() {
      await holdfast.runs.cancelAll();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
      await closeFrontend();
      await judges?.close();
      await savedRuns.close();
    },
  };
}
