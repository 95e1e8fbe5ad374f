import { readFile } from 'node:fs/promises';
import type { Rulebook } from '../contract/index.js';
import { defaultRulebookPath } from './default-rulebook-path.js';
import { parseRulebook } from './parse-rulebook.js';
import { NOT_UTF8_REASON, decodeText } from './read-text.js';
import { RulebookError } from './rulebook-error.js';

export { defaultRulebookPath };

/** Reads and validates a rulebook file (the shipped default when no file is given). */
export async function loadRulebook(file?: string): Promise<Rulebook> {
  const path = file ?? defaultRulebookPath();
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
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
  const decoded = decodeText(bytes);
  if (decoded.kind === 'undecodable') {
    // A binary file (an image, a program, an archive) given by mistake: one line that says so, never its bytes escaped.
    const what =
      decoded.reason === NOT_UTF8_REASON
        ? 'it is not UTF-8 text'
        : decoded.encoding === 'utf-8'
          ? 'it holds NUL bytes, as a binary file does'
          : `it is not valid ${decoded.encoding.toUpperCase()} text`;
    throw new RulebookError('E_RULEBOOK_READ', path, [
      {
        location: 'file',
        line: undefined,
        message: `not a rulebook (${what}): a rulebook is a YAML text file; pass yours with --rulebook (holdfast rulebook init drafts one from your AGENTS.md)`,
      },
    ]);
  }
  return parseRulebook(decoded.text, path);
}
