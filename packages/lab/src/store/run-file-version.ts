import { open } from 'node:fs/promises';
import { InputError, RUN_FILE_VERSIONS, jsonOrUndefined } from '@holdfast/core/contract';

const HEAD_BYTES = 1024 * 1024;

/**
 * A refusal naming the versions when the run file's run-start is of a format this holdfast does not
 * read (a newer holdfast wrote it), else undefined. Without it such a file reads as one with no
 * run-start at all, which sends the person looking for the wrong problem.
 */
export async function futureVersionError(path: string): Promise<InputError | undefined> {
  let head: string;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    head = buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
  for (const line of head.replace(/^\uFEFF/, '').split('\n')) {
    const value = jsonOrUndefined(line) as { type?: unknown; version?: unknown } | undefined;
    if (typeof value !== 'object' || value === null || value.type !== 'run-start') continue;
    const version = value.version;
    if ((RUN_FILE_VERSIONS as readonly unknown[]).includes(version)) return undefined;
    return new InputError(
      'E_RUN_FILE_VERSION',
      `${path} is a run file of format version ${JSON.stringify(version)}; this holdfast reads versions ${RUN_FILE_VERSIONS.slice(0, -1).join(', ')} and ${RUN_FILE_VERSIONS.at(-1)}. Open it with the holdfast that wrote it, or upgrade holdfast.`,
    );
  }
  return undefined;
}
