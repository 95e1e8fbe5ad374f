import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The run's own Qwen Code user settings: no update check, no usage statistics, no telemetry. The
 * endpoint, key and model come from the variables the target passes through (OPENAI_BASE_URL,
 * OPENAI_API_KEY, OPENAI_MODEL); the project's `.qwen/settings.json` holds holdfast's hooks.
 */
export async function prepareQwenHome(options: { readonly env: Record<string, string> }): Promise<void> {
  const home = options.env['HOME'];
  if (home === undefined) throw new Error('prepareQwenHome: the invocation has no HOME');
  await mkdir(join(home, '.qwen'), { recursive: true });
  const settings = { general: { enableAutoUpdate: false }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } };
  await writeFile(join(home, '.qwen', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}
