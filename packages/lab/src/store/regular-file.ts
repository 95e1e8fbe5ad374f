import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { HoldfastError } from '@holdfast/core/contract';

/**
 * A file the runs folder holds but holdfast will not read: a link (it could point at `~/.ssh`), a
 * FIFO (reading it blocks until someone writes), a device, a socket, a folder, or anything whose
 * folder resolves outside the runs folder. `reason` is the short phrase a listing shows.
 */
export class RefusedFileError extends HoldfastError {
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('E_FILE_REFUSED', `${path}: refused, ${reason}; only regular files inside the folder are read.`, options);
  }
}

export interface OpenedRegularFile {
  readonly handle: FileHandle;
  readonly stats: Stats;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'it is a symbolic link';
  if (stats.isFIFO()) return 'it is a FIFO (named pipe)';
  if (stats.isSocket()) return 'it is a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'it is a device';
  if (stats.isDirectory()) return 'it is a folder';
  return 'it is not a regular file';
}

function inside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

/**
 * Opens `path` for reading only when it is a regular file whose folder is really inside `root`.
 * The last component is opened without following a link and without blocking (so a FIFO cannot
 * hang the open), and the decision is made on the opened descriptor, not on the name, so a file
 * swapped between a check and the open is judged as what was opened.
 */
export async function openRegularFile(root: string, path: string): Promise<OpenedRegularFile> {
  const realRoot = await realpath(root);
  const realFolder = await realpath(dirname(path));
  if (!inside(realRoot, realFolder)) throw new RefusedFileError(path, 'its folder resolves outside the runs folder (a linked folder)');
  let handle: FileHandle;
  try {
    handle = await open(join(realFolder, basename(path)), READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new RefusedFileError(path, 'it is a symbolic link', { cause: error });
    if (code === 'ENXIO' || code === 'ENODEV') throw new RefusedFileError(path, 'it is a socket or device', { cause: error });
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new RefusedFileError(path, kindOf(stats));
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The bytes of a regular file inside `root` (see `openRegularFile`). */
export async function readRegularFile(root: string, path: string): Promise<Buffer> {
  const { handle } = await openRegularFile(root, path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
