import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { InputError } from '@holdfast/core/contract';

export const ENV_FILE = '.env';

/**
 * The environment with `.env` from `cwd` underneath it: a variable really set in `env` always wins,
 * so a key exported in the shell is never silently replaced by a stale file. `env` is not modified.
 */
export async function loadDotEnv(cwd: string, env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  let text: string;
  try {
    text = await readFile(join(cwd, ENV_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...env };
    throw new InputError('E_ENV_FILE', `${join(cwd, ENV_FILE)}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const merged: NodeJS.ProcessEnv = { ...parseEnv(text) };
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}
