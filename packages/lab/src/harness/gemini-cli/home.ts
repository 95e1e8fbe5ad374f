import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The run's own Gemini CLI user settings: API-key auth (the key and the API's base URL come from the
 * variables the target passes through: GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL) and the turn cap as
 * its `model.maxSessionTurns`. The project's `.gemini/settings.json` holds holdfast's hooks.
 */
export async function prepareGeminiHome(options: { readonly env: Record<string, string>; readonly maxTurns: number }): Promise<void> {
  const home = options.env['HOME'];
  if (home === undefined) throw new Error('prepareGeminiHome: the invocation has no HOME');
  await mkdir(join(home, '.gemini'), { recursive: true });
  const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, model: { maxSessionTurns: options.maxTurns } };
  await writeFile(join(home, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}
