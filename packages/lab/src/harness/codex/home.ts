import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trustCodexHooks } from './hook-trust.js';

/**
 * The arm's own CODEX_HOME: the repository trusted (Codex loads a project's .codex/ layer, hooks
 * included, only for a trusted project), hooks on, no approval prompts and no Codex sandbox (the
 * arm's repository is holdfast's throwaway). Then the project's hooks are trusted the way a
 * person's /hooks review records it, so holdfast's hook runs in both arms.
 */
export async function prepareCodexHome(options: { readonly bin: string; readonly workDir: string; readonly env: Record<string, string> }): Promise<void> {
  const codexHome = options.env['CODEX_HOME'];
  if (codexHome === undefined) throw new Error('prepareCodexHome: the invocation has no CODEX_HOME');
  mkdirSync(codexHome, { recursive: true });
  const config = [
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    `[projects.${JSON.stringify(options.workDir)}]`,
    'trust_level = "trusted"',
    '',
    '[features]',
    'hooks = true',
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);
  await trustCodexHooks({ bin: options.bin, cwd: options.workDir, env: options.env });
}
