import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot, buildWebApp, createServer } from '../index.js';
import { projectRoot } from './project-root.js';
import type { HoldfastServer } from '../index.js';
import type { QueueConnection } from '@holdfast/lab/scale';
import type { Timers } from '@holdfast/core/contract';

/**
 * What the browser tests and the UI benchmark share: a fresh build of the web app, the real server
 * on 127.0.0.1 port 0 serving it, and headless Chromium with an empty profile.
 */
export interface WebHarness {
  readonly server: HoldfastServer;
  readonly runsDir: string;
  readonly assetsDir: string;
  /** The server's working folder: where its holdfast.config.yaml is read from, on every GET /api/config. */
  readonly cwd: string;
  close(): Promise<void>;
}

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * Vite follows NODE_ENV, and vitest sets it to `test`, which would build React's slow development
 * bundle; what the tests and the benchmark measure must be what `npm start` ships.
 */
async function buildProduction(root: string, assetsDir: string): Promise<void> {
  const previous = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await buildWebApp(root, assetsDir);
  } finally {
    if (previous === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = previous;
  }
}

/**
 * Builds the web app into a temporary folder (so concurrent builds never share dist/web), copies the
 * shipped example run and any extra run files into a temporary runs folder, and starts the server.
 * The working folder is empty too: no holdfast.config.yaml (unless `configText` gives one), no .env,
 * so no key can reach a test.
 */
export async function startWebHarness(
  options: {
    runFiles?: readonly string[];
    defaultRun?: string;
    queue?: QueueConnection;
    timers?: Timers;
    /** A holdfast.config.yaml copied into the working folder (e.g. the shipped one), and the server's environment (default: none). */
    configFile?: string;
    /** A holdfast.config.yaml written from this text (e.g. the shipped one with its remote addresses pointed at loopback). */
    configText?: string;
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<WebHarness> {
  const root = appRoot();
  const work = await mkdtemp(join(tmpdir(), 'holdfast-web-'));
  const assetsDir = join(work, 'assets');
  const runsDir = join(work, 'runs');
  const cwd = join(work, 'cwd');
  await mkdir(runsDir, { recursive: true });
  await mkdir(cwd, { recursive: true });
  await copyFile(join(projectRoot(), 'runs', 'example.jsonl'), join(runsDir, 'example.jsonl'));
  if (options.configText !== undefined) await writeFile(join(cwd, 'holdfast.config.yaml'), options.configText);
  if (options.configFile !== undefined) await copyFile(options.configFile, join(cwd, 'holdfast.config.yaml'));
  for (const file of options.runFiles ?? []) await copyFile(file, join(runsDir, file.split('/').pop() ?? 'run.jsonl'));
  await buildProduction(root, assetsDir);
  const server = await createServer({
    dev: false,
    root,
    assetsDir,
    cwd,
    runsDir,
    env: options.env ?? {},
    host: '127.0.0.1',
    port: 0,
    defaultRun: options.defaultRun ?? 'example.jsonl',
    probeTimeoutMs: 300,
    log: () => undefined,
    ...(options.queue !== undefined ? { queue: options.queue } : {}),
    ...(options.timers !== undefined ? { timers: options.timers } : {}),
  });
  return {
    server,
    runsDir,
    assetsDir,
    cwd,
    async close() {
      await server.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** A persistent context on a new, empty user-data-dir, removed again by `close`. */
export async function launchChromium(): Promise<{ context: import('playwright-core').BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'holdfast-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    // Nothing moves while a check reads the page: no transition or smooth scroll is ever mid-flight.
    reducedMotion: 'reduce',
  });
  // A wait lasts until the state it waits for: how long depends on the machine's load, and the test's own time limit
  // bounds it (Playwright's 30 s default was a second, fixed limit that a loaded machine could pass).
  context.setDefaultTimeout(0);
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A new page at `baseUrl/hash` that fails the test on any uncaught error in the page. */
export async function openPage(context: import('playwright-core').BrowserContext, baseUrl: string, hash = ''): Promise<import('playwright-core').Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${baseUrl}/${hash}`);
  return page;
}
