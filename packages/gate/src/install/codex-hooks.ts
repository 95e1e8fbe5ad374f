import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { isHoldfastCommand } from './hook-command.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/**
 * Codex (0.124+) runs a project's hooks only once a person trusted them: `[hooks.state."<key>"]
 * trusted_hash` in the user's config.toml, where the key is `<hooks.json path>:<event>:<group>:<handler>`
 * and the hash is Codex's own fingerprint of the hook. Rather than re-deriving either (both change
 * with Codex versions), holdfast asks Codex itself through `codex app-server`: `hooks/list` says
 * what Codex discovered and whether it trusts it, and trusting is the same `config/batchWrite` of
 * `hooks.state.<key>.trusted_hash` that Codex's own /hooks review performs.
 */
interface CodexHook {
  readonly key: string;
  readonly eventName: string;
  readonly command: string;
  readonly matcher: string | null;
  readonly timeoutSec: number;
  readonly sourcePath: string;
  readonly enabled: boolean;
  readonly currentHash: string;
  readonly trustStatus: string;
}

export interface CodexView {
  /** Holdfast's hooks as Codex discovered them for the project (none when it does not load .codex/). */
  readonly hooks: readonly CodexHook[];
  /** The `hooks` feature flag as Codex resolves it (the successor of the deprecated `codex_hooks`). */
  readonly hooksFeature: boolean | undefined;
  readonly warnings: readonly string[];
  readonly stderr: string;
}

/** The codex binary: `--codex PATH`, else `codex` on PATH. */
export function findCodex(explicit: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const executable = (path: string): boolean => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (explicit !== undefined) {
    const path = isAbsolute(explicit) ? explicit : resolve(cwd, explicit);
    return executable(path) ? path : undefined;
  }
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder !== '' && executable(join(folder, 'codex'))) return join(folder, 'codex');
  }
  return undefined;
}

interface RpcResponse {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message?: string };
}

/** One `codex app-server` session over stdio (JSON lines), for the few calls holdfast makes. */
async function withAppServer<T>(
  codex: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  work: (request: (method: string, params: unknown) => Promise<unknown>) => Promise<T>,
): Promise<{ value: T; stderr: string }> {
  const child = spawn(codex, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let buffer = '';
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line === '') continue;
      const message = jsonOrUndefined(line) as RpcResponse | undefined;
      if (typeof message !== 'object' || message === null) continue;
      const entry = message.id === undefined ? undefined : pending.get(message.id);
      if (entry === undefined || message.id === undefined) continue;
      pending.delete(message.id);
      if (message.error !== undefined) entry.reject(new Error(message.error.message ?? 'codex app-server refused the request'));
      else entry.resolve(message.result);
    }
  });
  const exited = new Promise<void>((resolveExit) => {
    child.once('error', (error) => {
      failAll(error);
      resolveExit();
    });
    child.once('exit', () => {
      failAll(new Error(`codex app-server exited${stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').slice(-1)[0] ?? ''}`}`));
      resolveExit();
    });
  });
  const request = (method: string, params: unknown): Promise<unknown> =>
    new Promise((resolveRequest, rejectRequest) => {
      const id = ++nextId;
      pending.set(id, { resolve: resolveRequest, reject: rejectRequest });
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  try {
    await request('initialize', { clientInfo: { name: 'holdfast', version: '1' } });
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
    const value = await work(request);
    return { value, stderr };
  } finally {
    child.stdin.end();
    child.kill();
    await exited;
  }
}

function hooksOf(result: unknown, root: string): { hooks: CodexHook[]; warnings: string[] } {
  const data = (result as { data?: { cwd?: string; hooks?: CodexHook[]; warnings?: string[]; errors?: unknown[] }[] }).data ?? [];
  const entry = data.find((each) => each.cwd === root) ?? data[0];
  const hooks = (entry?.hooks ?? []).filter((hook) => isHoldfastCommand(hook.command));
  const warnings = [...(entry?.warnings ?? []), ...(entry?.errors ?? []).map((error) => (typeof error === 'string' ? error : JSON.stringify(error)))];
  return { hooks, warnings };
}

function hooksFeatureOf(result: unknown): boolean | undefined {
  const data = (result as { data?: { name?: string; enabled?: boolean }[] }).data ?? [];
  return data.find((feature) => feature.name === 'hooks')?.enabled;
}

function codexError(codex: string, error: unknown): InputError {
  const reason = error instanceof Error ? error.message : String(error);
  return new InputError(
    'E_CODEX',
    `cannot ask Codex (${codex}) about its hooks: ${reason}. Check that \`codex --version\` runs (0.124 or later), or pass --codex PATH.`,
    { cause: error },
  );
}

/** What Codex makes of holdfast's hooks in this project. */
export async function readCodexView(codex: string, root: string, env: NodeJS.ProcessEnv): Promise<CodexView> {
  try {
    const { value, stderr } = await withAppServer(codex, env, root, async (request) => {
      const listed = hooksOf(await request('hooks/list', { cwds: [root] }), root);
      const features = await request('experimentalFeature/list', {}).catch(() => undefined);
      return { ...listed, hooksFeature: features === undefined ? undefined : hooksFeatureOf(features) };
    });
    return { ...value, stderr };
  } catch (error) {
    throw codexError(codex, error);
  }
}

/**
 * Records trust in holdfast's hooks as Codex's /hooks review does: Codex's own current hash of each
 * hook, written by Codex into the user's config.toml. Returns the hooks as Codex now sees them.
 */
export async function trustHoldfastHooks(codex: string, root: string, env: NodeJS.ProcessEnv): Promise<CodexView> {
  try {
    const { value, stderr } = await withAppServer(codex, env, root, async (request) => {
      const before = hooksOf(await request('hooks/list', { cwds: [root] }), root);
      const edits = before.hooks
        .filter((hook) => hook.trustStatus !== 'trusted')
        .map((hook) => ({ keyPath: `hooks.state.${JSON.stringify(hook.key)}.trusted_hash`, value: hook.currentHash, mergeStrategy: 'upsert' }));
      if (edits.length > 0) await request('config/batchWrite', { edits, reloadUserConfig: true });
      const after = hooksOf(await request('hooks/list', { cwds: [root] }), root);
      const features = await request('experimentalFeature/list', {}).catch(() => undefined);
      return { ...after, hooksFeature: features === undefined ? undefined : hooksFeatureOf(features) };
    });
    return { ...value, stderr };
  } catch (error) {
    throw codexError(codex, error);
  }
}

/** Codex's stderr says so when it ignores the project's .codex/ folder because the project is not trusted. */
export function projectUntrusted(view: CodexView): boolean {
  return /disabled in the following folders until the project is trusted/.test(view.stderr);
}
