import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The run's own OpenCode user config: no auto-update, no sharing, and the turn cap as the build
 * agent's `steps`. The model provider is the person's: OpenCode merges OPENCODE_CONFIG_CONTENT (a
 * variable the target passes through, e.g. a `provider` entry for a local OpenAI-compatible server)
 * over this file. The project's `.opencode/plugin/holdfast-gate.js` is holdfast's gate.
 */
export async function prepareOpenCodeHome(options: { readonly env: Record<string, string>; readonly maxTurns: number }): Promise<void> {
  const home = options.env['HOME'];
  if (home === undefined) throw new Error('prepareOpenCodeHome: the invocation has no HOME');
  const folder = join(options.env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'opencode');
  await mkdir(folder, { recursive: true });
  const config = { $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled', agent: { build: { steps: options.maxTurns } } };
  await writeFile(join(folder, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
}
