import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { HoldfastError } from '@holdfast/core/contract';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** Codex's answer for one hook (app-server `hooks/list`, measured on 0.171.0). */
export interface CodexHookEntry {
  /** `<absolute path of hooks.json>:<event in snake_case>:<matcher group index>:<handler index>` */
  readonly key: string;
  readonly eventName: string;
  readonly command?: string;
  readonly source: string;
  readonly currentHash: string;
  readonly trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified';
}

class CodexHookTrustError extends HoldfastError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CODEX_HOOK_TRUST', message, options);
  }
}

interface RpcAnswer {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message?: string };
}

/**
 * How a person's trust in project hooks is recorded, done the way Codex's own /hooks review does it.
 *
 * Codex 0.124+ runs a non-managed hook only when the user config (CODEX_HOME/config.toml) holds
 *
 *     [hooks.state."<key>"]
 *     trusted_hash = "sha256:…"
 *
 * for it, with the hash Codex computes over the hook's definition (so any edit to hooks.json makes
 * it "modified", i.e. inert again), and only when the project itself is trusted
 * (`[projects."<abs path>"] trust_level = "trusted"`: Codex loads a project's .codex/ layer, hooks
 * included, for trusted projects only). Codex computes the hash; we never do. `codex app-server`
 * (JSON-RPC over stdio) answers `hooks/list` with each hook's `key`, `currentHash` and `trustStatus`,
 * and `config/batchWrite` with `hooks.state."<key>".trusted_hash = currentHash` records the trust,
 * exactly what the TUI review writes. The one-invocation alternative is
 * `codex exec --dangerously-bypass-hook-trust`. `holdfast install codex --trust` can do the same.
 *
 * Returns the project hooks of `cwd` after trusting them, as Codex lists them.
 */
export async function trustCodexHooks(options: {
  readonly bin: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Which hooks to trust; by default every project hook of `cwd`. */
  readonly select?: (hook: CodexHookEntry) => boolean;
}): Promise<CodexHookEntry[]> {
  const child = spawn(options.bin, ['app-server'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const pending = new Map<number, (answer: RpcAnswer) => void>();
  let closed: Error | undefined;
  const fail = (error: Error) => {
    closed = error;
    for (const resolve of pending.values()) resolve({ error: { message: error.message } });
    pending.clear();
  };
  child.on('error', fail);
  child.on('close', (code) => fail(new Error(`codex app-server exited (${code ?? 'signal'}): ${stderr.trim().split('\n').slice(-5).join('\n')}`)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = jsonOrUndefined(line) as RpcAnswer | undefined;
    if (typeof answer !== 'object' || answer === null || answer.id === undefined) return;
    pending.get(answer.id)?.(answer);
    pending.delete(answer.id);
  });
  let nextId = 0;
  const call = async (method: string, params: unknown): Promise<unknown> => {
    if (closed !== undefined) throw new CodexHookTrustError(`${method}: ${closed.message}`);
    nextId += 1;
    const id = nextId;
    const answer = await new Promise<RpcAnswer>((resolve) => {
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ method, id, params })}\n`);
    });
    if (answer.error !== undefined) throw new CodexHookTrustError(`codex app-server refused ${method}: ${answer.error.message ?? 'no message'}`);
    return answer.result;
  };
  const listProjectHooks = async (): Promise<CodexHookEntry[]> => {
    const result = (await call('hooks/list', { cwds: [options.cwd] })) as { data?: { hooks?: CodexHookEntry[] }[] };
    return (result.data ?? []).flatMap((entry) => entry.hooks ?? []).filter((hook) => hook.source === 'project');
  };
  try {
    await call('initialize', { clientInfo: { name: 'holdfast', title: 'holdfast', version: '0.1.0' } });
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
    const select = options.select ?? (() => true);
    const untrusted = (await listProjectHooks()).filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed' && select(hook));
    if (untrusted.length > 0) {
      const edits = untrusted.map((hook) => ({
        keyPath: `hooks.state.${JSON.stringify(hook.key)}.trusted_hash`,
        value: hook.currentHash,
        mergeStrategy: 'upsert',
      }));
      await call('config/batchWrite', { edits });
    }
    const after = await listProjectHooks();
    const still = after.filter((hook) => select(hook) && hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
    if (still.length > 0)
      throw new CodexHookTrustError(
        `Codex still lists ${still.map((hook) => `${hook.key} (${hook.trustStatus})`).join(', ')} as not trusted after recording trust.`,
      );
    return after;
  } finally {
    child.stdin.end();
    child.kill();
  }
}
