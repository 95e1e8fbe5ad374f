import { join, relative, resolve, sep } from 'node:path';
import type { ApiRunFile, RunEvent } from '@holdfast/core/contract';
import { RefusedFileError, listRunFiles, openRegularFile, safeParseRunFileText } from '@holdfast/lab/store';
import type { RunFileContents } from '@holdfast/lab/store';
import { ApiError } from './api-error.js';
import { readRoundEvents } from './run-index.js';
import type { RunIndexCache } from './run-index.js';

const RUN_FILE_NAME = /^[A-Za-z0-9._-]{1,200}\.jsonl$/;

/**
 * The path of a plain file name inside `folder`, or a refusal with `code`. Only a plain file name is
 * accepted, so `../`, absolute paths, encoded slashes and backslashes never reach the file system.
 */
export function jsonlFileIn(folder: string, name: string, code: string, what: string): string {
  if (!RUN_FILE_NAME.test(name) || name.startsWith('.')) {
    throw new ApiError(400, code, `"${name.slice(0, 200)}" is not a ${what} file name: use up to 200 letters, digits, ".", "_" and "-", ending in .jsonl.`);
  }
  const root = resolve(folder);
  const path = resolve(root, name);
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith('..') || inside.includes(sep)) {
    throw new ApiError(400, code, `"${name}" is outside the ${what}s folder.`);
  }
  return join(root, inside);
}

/** Whether `name` is a file name the file routes answer for (what the listings show). */
export function isJsonlFileName(name: string): boolean {
  return RUN_FILE_NAME.test(name) && !name.startsWith('.');
}

/** The path of a saved run inside `runsDir`, or a `400 E_RUN_NAME` refusal. */
export function runFilePath(runsDir: string, name: string): string {
  return jsonlFileIn(runsDir, name, 'E_RUN_NAME', 'run');
}

function notFound(name: string, error: unknown): ApiError {
  return new ApiError(404, 'E_RUN_NOT_FOUND', `no saved run named "${name}".`, { cause: error });
}

/** A refused file (a link, a FIFO, a device) answers 403 with the reason; the target is never read. */
function refusedRun(name: string, error: unknown): ApiError | undefined {
  if (!(error instanceof RefusedFileError)) return undefined;
  return new ApiError(403, 'E_RUN_FILE_REFUSED', `"${name}" is not served: ${error.reason}. Only regular files inside the runs folder are served.`, {
    cause: error,
  });
}

export function isMissing(error: unknown): boolean {
  const code = (error as { cause?: NodeJS.ErrnoException; code?: string }).cause?.code ?? (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'E_RUN_FILE_READ';
}

/** The raw JSONL of a saved run, as a stream of its bytes: a file of any size is sent without being held whole. */
export async function openRunStream(runsDir: string, name: string): Promise<NodeJS.ReadableStream> {
  const path = runFilePath(runsDir, name);
  try {
    const { handle } = await openRegularFile(runsDir, path);
    return handle.createReadStream();
  } catch (error) {
    throw refusedRun(name, error) ?? (isMissing(error) ? notFound(name, error) : error);
  }
}

/**
 * The lean JSONL of a saved run (see `leanRunFileLine`), gzipped when asked, from the cache when
 * the file is unchanged.
 */
export async function readLeanRunBytes(
  cache: RunIndexCache,
  runsDir: string,
  name: string,
  gzipped: boolean,
  view: 'lean' | 'summary' = 'lean',
): Promise<Buffer> {
  const path = runFilePath(runsDir, name);
  try {
    const index = await cache.get(path, runsDir);
    if (view === 'summary') return await index.summary(gzipped);
    return gzipped ? await index.gzipped() : index.lean;
  } catch (error) {
    throw refusedRun(name, error) ?? (isMissing(error) ? notFound(name, error) : error);
  }
}

const ROUND_ID_MAX = 512;

/**
 * Refuses a round id that is not one: ids are `target/task/rep`, so slashes are expected, but never
 * an empty, `.` or `..` segment, a backslash or a control character. The id only ever selects lines
 * of the named run file, never a path; the refusal keeps the route's input as narrow as the data.
 */
function checkRoundId(roundId: string): string {
  const bad =
    roundId === '' ||
    roundId.length > ROUND_ID_MAX ||
    // eslint-disable-next-line no-control-regex -- a control character is one of the things a round id may not hold
    /[\\\u0000-\u001f\u007f]/.test(roundId) ||
    roundId.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw new ApiError(400, 'E_ROUND_ID', `"${roundId.slice(0, 80)}" is not a round id: expected target/task/rep (URL-encoded as one path segment).`);
  return roundId;
}

/** Every event of one round of a saved run, in file order: round-start, approvals, arm-ends. */
export async function readSavedRound(cache: RunIndexCache, runsDir: string, name: string, roundId: string): Promise<RunEvent[]> {
  const path = runFilePath(runsDir, name);
  checkRoundId(roundId);
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const ranges = (await cache.get(path, runsDir)).rounds.get(roundId);
      if (ranges === undefined) break;
      const events = await readRoundEvents(path, roundId, ranges, runsDir);
      if (events !== undefined) return events;
      // The file changed under the index without changing size and mtime: read it again, once.
      cache.forget(path);
    }
  } catch (error) {
    throw refusedRun(name, error) ?? (isMissing(error) ? notFound(name, error) : error);
  }
  throw new ApiError(404, 'E_ROUND_NOT_FOUND', `the saved run "${name}" has no round "${roundId.slice(0, 200)}".`);
}

/**
 * The largest run file the JSON view answers: its events become one JSON text, which V8 cannot hold
 * past about 512 MB. Larger files are served as JSONL (full, lean or summary), streamed or line by line.
 */
const JSON_VIEW_MAX_BYTES = 256 * 1024 * 1024;

/** The readable events of a saved run, and the lines that could not be read. */
export async function readSavedRun(runsDir: string, name: string): Promise<RunFileContents> {
  const path = runFilePath(runsDir, name);
  let opened;
  try {
    opened = await openRegularFile(runsDir, path);
  } catch (error) {
    throw refusedRun(name, error) ?? (isMissing(error) ? notFound(name, error) : error);
  }
  const { handle, stats } = opened;
  try {
    if (stats.size > JSON_VIEW_MAX_BYTES)
      throw new ApiError(
        413,
        'E_RUN_TOO_LARGE_FOR_JSON',
        `the saved run "${name}" is ${Math.round(stats.size / 1024 / 1024)} MB, over the JSON view's ${JSON_VIEW_MAX_BYTES / 1024 / 1024} MB: read it as JSONL instead (Accept: application/x-ndjson; ?view=lean or ?view=summary for less).`,
      );
    return safeParseRunFileText((await handle.readFile()).toString('utf8'), path);
  } finally {
    await handle.close();
  }
}

export async function listSavedRuns(runsDir: string): Promise<ApiRunFile[]> {
  const files = await listRunFiles(runsDir);
  return files
    .filter((file) => isJsonlFileName(file.name))
    .map((file) => ({
      name: file.name,
      size: file.size,
      mtime: file.mtime.toISOString(),
      ...(file.runId !== undefined ? { runId: file.runId } : {}),
      ...(file.status !== undefined ? { status: file.status } : {}),
      ...(file.demo !== undefined ? { demo: file.demo } : {}),
      ...(file.rounds !== undefined ? { rounds: file.rounds } : {}),
      ...(file.mode !== undefined ? { mode: file.mode } : {}),
      ...(file.reps !== undefined ? { reps: file.reps } : {}),
      ...(file.tasks !== undefined ? { tasks: file.tasks } : {}),
      ...(file.targets !== undefined ? { targets: file.targets } : {}),
      ...(file.refused !== undefined ? { refused: file.refused } : {}),
    }));
}
