import { HoldfastError } from '@holdfast/core/contract';
import { trustHoldfastHooks } from '@holdfast/gate';
import type { CodexView } from '@holdfast/gate';

class CodexHookTrustError extends HoldfastError {
  constructor(message: string) {
    super('E_CODEX_HOOK_TRUST', message);
  }
}

/**
 * A person's trust in holdfast's project hooks, recorded as Codex's own /hooks review records it: the gate's one
 * implementation (`holdfast install codex --trust`, which asks `codex app-server` for each hook's key and hash and
 * has Codex write `[hooks.state."<key>"] trusted_hash`). An arm cannot run on a gate Codex would skip, so a hook
 * still not trusted afterwards is an error here. Returns holdfast's hooks of `cwd` as Codex now lists them.
 */
export async function trustCodexHooks(options: { readonly bin: string; readonly cwd: string; readonly env: NodeJS.ProcessEnv }): Promise<CodexView['hooks']> {
  const view = await trustHoldfastHooks(options.bin, options.cwd, options.env);
  const still = view.hooks.filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
  if (still.length > 0)
    throw new CodexHookTrustError(
      `Codex still lists ${still.map((hook) => `${hook.key} (${hook.trustStatus})`).join(', ')} as not trusted after recording trust.`,
    );
  return view.hooks;
}
