import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PressureRecordSchema, safeParseJson } from '@holdfast/core/contract';
import type { ApiPressureFile, PressureFileResponse, PressureRecord, ResponseOrigin } from '@holdfast/core/contract';
import { summarizePressureRecords } from '@holdfast/lab/pressure';
import { RefusedFileError, openRegularFile, readRegularFile } from '@holdfast/lab/store';
import { ApiError } from './api-error.js';
import { isJsonlFileName, isMissing, jsonlFileIn } from './run-files.js';

/** Pressure results files live in their own folder under the runs folder: they are not run files. */
const PRESSURE_FOLDER = 'pressure';

type Problem = PressureFileResponse['problems'][number];

interface PressureFileContents {
  readonly records: PressureRecord[];
  readonly problems: Problem[];
}

function pressureFolder(runsDir: string): string {
  return join(runsDir, PRESSURE_FOLDER);
}

/** The path of a pressure results file, or a `400 E_PRESSURE_NAME` refusal (same rules as run names). */
function pressureFilePath(runsDir: string, name: string): string {
  return jsonlFileIn(pressureFolder(runsDir), name, 'E_PRESSURE_NAME', 'pressure results');
}

/**
 * Every readable record of a results file, and each line that is not one. Unlike the CLI's strict
 * parser this never stops at the first bad line: a file cut off mid-write still shows what it has.
 */
function readPressureText(text: string): PressureFileContents {
  const records: PressureRecord[] = [];
  const problems: Problem[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const json = safeParseJson(line);
    if (!json.ok) {
      problems.push({ line: index + 1, kind: 'json', message: `line ${index + 1} is not JSON; skipped` });
      return;
    }
    const parsed = PressureRecordSchema.safeParse(json.value);
    if (parsed.success) {
      records.push(parsed.data);
      return;
    }
    const issue = parsed.error.issues[0];
    problems.push({
      line: index + 1,
      kind: 'schema',
      message: `line ${index + 1}: ${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'not a pressure record'}`,
    });
  });
  return { records, problems };
}

async function readPressureFileText(runsDir: string, name: string): Promise<string> {
  const path = pressureFilePath(runsDir, name);
  try {
    return (await readRegularFile(runsDir, path)).toString('utf8');
  } catch (error) {
    if (error instanceof RefusedFileError) {
      throw new ApiError(403, 'E_PRESSURE_FILE_REFUSED', `"${name}" is not served: ${error.reason}. Only regular files inside the runs folder are served.`, {
        cause: error,
      });
    }
    if (isMissing(error)) throw new ApiError(404, 'E_PRESSURE_NOT_FOUND', `no pressure results file named "${name}".`, { cause: error });
    throw error;
  }
}

/** GET /api/pressure/:name */
export async function readPressureFile(runsDir: string, name: string): Promise<PressureFileResponse> {
  const { records, problems } = readPressureText(await readPressureFileText(runsDir, name));
  const rows = summarizePressureRecords(records).map(({ target, ...row }) => ({ ...row, ...(target !== undefined ? { target } : {}) }));
  return { name, rows, records, problems };
}

function originsOf(records: readonly PressureRecord[]): Partial<Record<ResponseOrigin, number>> {
  const origins: Partial<Record<ResponseOrigin, number>> = {};
  for (const record of records) origins[record.origin] = (origins[record.origin] ?? 0) + 1;
  return origins;
}

/** GET /api/pressure: every results file of the pressure folder, newest first; none when it is absent. */
export async function listPressureFiles(runsDir: string): Promise<ApiPressureFile[]> {
  const folder = pressureFolder(runsDir);
  let names: string[];
  try {
    names = (await readdir(folder)).filter(isJsonlFileName);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
  const files: ApiPressureFile[] = [];
  for (const name of names) {
    const path = join(folder, name);
    try {
      const { handle, stats: info } = await openRegularFile(runsDir, path);
      const text = await handle.readFile('utf8').finally(() => handle.close());
      const { records } = readPressureText(text);
      files.push({ name, size: info.size, mtime: info.mtime.toISOString(), records: records.length, origins: originsOf(records) });
    } catch (error) {
      // A file removed between the listing and the read is simply not listed, nor is one that is not served.
      if (error instanceof RefusedFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
  }
  return files.sort((a, b) => b.mtime.localeCompare(a.mtime) || a.name.localeCompare(b.name));
}
