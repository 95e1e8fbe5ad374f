import { readFile } from 'node:fs/promises';
import { InputError } from '@holdfast/core/contract';
import type { RunEvent } from '@holdfast/core/contract';
import { parseRunFileText, safeParseRunFileText } from './run-file-text.js';
import type { RunFileContents } from './run-file-text.js';

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a run file' : `cannot be read (${code ?? String(error)})`;
    throw new InputError('E_RUN_FILE_READ', `${path}: ${why}.`, { cause: error });
  }
}

/** Reads a run file, keeping every good line and listing the bad ones. Throws only when the file cannot be read. */
export async function readRunFile(path: string): Promise<RunFileContents> {
  return safeParseRunFileText(await readText(path), path);
}

/** Reads a run file and throws an InputError at the first bad line. */
export async function readRunFileStrict(path: string): Promise<RunEvent[]> {
  return parseRunFileText(await readText(path), path);
}
