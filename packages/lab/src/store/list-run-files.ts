import { lstat, readdir } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { RunEndEventSchema, RunStartEventSchema, jsonOrUndefined } from '@holdfast/core/contract';
import { RefusedFileError, openRegularFile } from './regular-file.js';

export interface RunFileSummary {
  name: string;
  path: string;
  size: number;
  mtime: Date;
  runId?: string;
  /** From the final run-end event; `incomplete` when the file has none (still running, or crashed). */
  status?: 'completed' | 'interrupted' | 'failed' | 'incomplete';
  /** Set when the replies were hand-written for a demo. */
  demo?: string;
  /** Rounds the run planned (targets × tasks × reps), from its run-start. */
  rounds?: number;
  /** How its rounds were played, and what it recorded: what a replay of it may choose from. */
  mode?: 'plan' | 'loop' | 'agent';
  reps?: number;
  tasks?: string[];
  targets?: string[];
  /** Time of the run-start event. */
  started?: string;
  /** Why the file is not read (a link, a FIFO, a device...); such a file is listed but never opened. */
  refused?: string;
}

const CHUNK = 64 * 1024;

async function firstLine(handle: FileHandle, size: number): Promise<string> {
  const parts: Buffer[] = [];
  for (let position = 0; position < size; position += CHUNK) {
    const buffer = Buffer.alloc(Math.min(CHUNK, size - position));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    const chunk = buffer.subarray(0, bytesRead);
    const newline = chunk.indexOf(0x0a);
    if (newline >= 0) {
      parts.push(chunk.subarray(0, newline));
      break;
    }
    parts.push(chunk);
    if (bytesRead === 0) break;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The last newline-terminated line: a torn tail from a crash is not a line yet. */
async function lastLine(handle: FileHandle, size: number): Promise<string> {
  let tail = Buffer.alloc(0);
  for (let start = size; start > 0;) {
    const from = Math.max(0, start - CHUNK);
    const buffer = Buffer.alloc(start - from);
    await handle.read(buffer, 0, buffer.length, from);
    tail = Buffer.concat([buffer, tail]);
    start = from;
    let terminator = tail.lastIndexOf(0x0a);
    while (terminator > 0 && tail[terminator - 1] === 0x0a) terminator -= 1;
    if (terminator < 0) continue;
    const previous = terminator === 0 ? -1 : tail.lastIndexOf(0x0a, terminator - 1);
    if (previous >= 0 || start === 0) return tail.subarray(previous + 1, terminator).toString('utf8');
  }
  return '';
}

async function summarize(dir: string, name: string): Promise<RunFileSummary | null> {
  const path = join(dir, name);
  let opened;
  try {
    opened = await openRegularFile(dir, path);
  } catch (error) {
    if (!(error instanceof RefusedFileError)) throw error;
    const entry = await lstat(path);
    if (entry.isDirectory()) return null;
    return { name, path, size: 0, mtime: entry.mtime, refused: error.reason };
  }
  const { handle, stats: info } = opened;
  const summary: RunFileSummary = { name, path, size: info.size, mtime: info.mtime };
  try {
    if (info.size === 0) return summary;
    const start = RunStartEventSchema.safeParse(jsonOrUndefined((await firstLine(handle, info.size)).replace(/^\uFEFF/, '')));
    if (start.success) {
      const { config } = start.data;
      summary.runId = start.data.runId;
      summary.started = start.data.time;
      summary.rounds = config.targets.length * config.tasks.length * config.reps;
      summary.mode = config.mode ?? 'plan';
      summary.reps = config.reps;
      summary.tasks = [...config.tasks];
      summary.targets = [...config.targets];
      if (start.data.demo !== undefined) summary.demo = start.data.demo;
    }
    const end = RunEndEventSchema.safeParse(jsonOrUndefined(await lastLine(handle, info.size)));
    summary.status = end.success ? end.data.status : 'incomplete';
    if (summary.runId === undefined && end.success) summary.runId = end.data.runId;
  } finally {
    await handle.close();
  }
  return summary;
}

/**
 * The `.jsonl` files of a folder, newest first, each summarized from its first and last lines
 * only, so listing stays cheap however long the runs are. A missing folder lists as empty.
 */
export async function listRunFiles(dir: string): Promise<RunFileSummary[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const summaries = await Promise.all(names.filter((name) => name.endsWith('.jsonl')).map((name) => summarize(dir, name)));
  return summaries
    .filter((summary): summary is RunFileSummary => summary !== null)
    .sort((a, b) => b.mtime.getTime() - a.mtime.getTime() || a.name.localeCompare(b.name));
}
