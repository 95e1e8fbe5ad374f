import { readFile } from 'node:fs/promises';
import type { Rulebook } from '../contract/index.js';
import { defaultRulebookPath } from './default-rulebook-path.js';
import { parseRulebook } from './parse-rulebook.js';
import { RulebookError } from './rulebook-error.js';

export { defaultRulebookPath };

/** Reads and validates a rulebook file (the shipped default when no file is given). */
export async function loadRulebook(file?: string): Promise<Rulebook> {
  const path = file ?? defaultRulebookPath();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error);
    throw new RulebookError(
      'E_RULEBOOK_READ',
      path,
      [
        {
          location: 'file',
          line: undefined,
          message: `cannot be read (${reason}); pass an existing rulebook with --rulebook, or leave it out for the default`,
        },
      ],
      { cause: error },
    );
  }
  return parseRulebook(text, path);
}
