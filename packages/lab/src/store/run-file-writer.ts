import { closeSync, existsSync, ftruncateSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { HoldfastError, RunEventSchema, jsonOrUndefined } from '@holdfast/core/contract';
import type { RunEvent, RunEventInput } from '@holdfast/core/contract';
import { lockRunFile } from './run-file-lock.js';
import type { LockOptions } from './run-file-lock.js';
import { BYTE_ORDER_MARK, describeIssues, isRunSeq } from './run-file-text.js';
import { ReplyReferences } from './reply-references.js';
import { capStoredReply } from './stored-reply.js';

/** An event as a producer hands it to the writer: the writer assigns `seq` and, if absent, `time`. */
export type RunEventDraft = RunEventInput extends infer E ? (E extends RunEventInput ? Omit<E, 'time'> & { time?: string } : never) : never;

export interface OpenRunFileOptions {
  now?: () => Date;
  /**
   * Values that must never reach disk, typically the API keys the run was given. Any occurrence
   * in a line is replaced with `[redacted]`. Values shorter than 8 characters are ignored: they
   * cannot be keys, and redacting them would mangle ordinary text.
   */
  secrets?: readonly string[];
  /** fsync after every line: survives power loss too, at the cost of a disk flush per event. */
  sync?: boolean;
  /** How the one-writer lock (FILE.lock) names this process and tells whether its holder still runs. */
  lock?: LockOptions;
  /** Where lines are written; `fs.writeSync` unless a test puts a full disk in its place. */
  writeSync?: (descriptor: number, buffer: Buffer, offset: number, length: number) => number;
}

export interface RunFileRecovery {
  /** The highest valid seq already in the file, or null for a new or empty file. */
  lastSeq: number | null;
  /** A final line cut off mid-write by a crash, removed before appending so it cannot glue onto the next event. */
  tornTail?: { line: number; characters: number };
}

export interface RunFileWriter {
  readonly path: string;
  /** The seq the next appended event will get. */
  readonly nextSeq: number;
  readonly recovery: RunFileRecovery;
  /** Validates, stamps and appends one event as one line; returns the event exactly as written. */
  append(draft: RunEventDraft): RunEvent;
  close(): void;
}

export class RunFileWriteError extends HoldfastError {}

const DISK_CODES: Readonly<Record<string, { code: string; what: string; fix: string }>> = {
  ENOSPC: { code: 'E_RUN_FILE_NO_SPACE', what: 'the disk is full (ENOSPC)', fix: 'free some space' },
  EDQUOT: { code: 'E_RUN_FILE_NO_SPACE', what: 'the disk quota is used up (EDQUOT)', fix: 'free some space' },
  EACCES: { code: 'E_RUN_FILE_ACCESS', what: 'holdfast may not write it (EACCES)', fix: 'make the file and its folder writable' },
  EPERM: { code: 'E_RUN_FILE_ACCESS', what: 'holdfast may not write it (EPERM)', fix: 'make the file and its folder writable' },
  EROFS: { code: 'E_RUN_FILE_ACCESS', what: 'it is on a read-only file system (EROFS)', fix: 'pick a writable place with --out' },
};

/**
 * A run file the disk will not take: full, or not writable. Every line before the failed one is
 * complete on disk, and a torn last line is cut when the file is reopened, so nothing finished is
 * lost: the message says what to fix and how to finish the run with --resume.
 */
export class RunFileDiskError extends RunFileWriteError {
  constructor(
    readonly path: string,
    errno: string,
    /** False when not even the run-start is on disk: there is nothing to resume, the command is run again. */
    readonly resumable: boolean,
    options?: { cause?: unknown },
  ) {
    const known = DISK_CODES[errno]!;
    const next = resumable
      ? `Every event before this one is saved; ${known.fix}, then finish the run with: holdfast run --resume ${path}`
      : `Nothing of the run was recorded; ${known.fix}, then run the same command again.`;
    super(known.code, `${path}: cannot write the run file: ${known.what}. ${next}`, options);
  }
}

/** The error to throw for a failed write or open of `path`: a RunFileDiskError for a full or unwritable disk. */
function diskError(path: string, error: unknown, resumable: boolean): unknown {
  const errno = (error as NodeJS.ErrnoException).code;
  return errno !== undefined && errno in DISK_CODES ? new RunFileDiskError(path, errno, resumable, { cause: error }) : error;
}

const REDACTED = '[redacted]';
const MIN_SECRET_LENGTH = 8;

function readWhole(descriptor: number): string {
  const size = fstatSync(descriptor).size;
  const buffer = Buffer.alloc(size);
  let offset = 0;
  while (offset < size) {
    const read = readSync(descriptor, buffer, offset, size - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  return buffer.toString('utf8', 0, offset);
}

function seqOf(line: string): number | null {
  const value = jsonOrUndefined(line);
  const seq = typeof value === 'object' && value !== null ? (value as { seq?: unknown }).seq : undefined;
  return isRunSeq(seq) ? seq : null;
}

function writeAll(descriptor: number, text: string, write: NonNullable<OpenRunFileOptions['writeSync']> = writeSync, newline = false): void {
  // The newline goes into the same buffer: `${text}\n` would be one more copy of a long line.
  const length = Buffer.byteLength(text, 'utf8');
  const buffer = Buffer.allocUnsafe(length + (newline ? 1 : 0));
  buffer.write(text, 0, 'utf8');
  if (newline) buffer[length] = 0x0a;
  let offset = 0;
  while (offset < buffer.length) offset += write(descriptor, buffer, offset, buffer.length - offset);
}

/**
 * Recovers an existing file for resume: a torn last line is cut (it never finished, so cutting it
 * loses nothing that finished), a complete last line that only lacks its newline gets one, and the
 * seq continues after the highest valid seq in the file (a line appended out of order with a lower
 * seq must not make the next events reuse seqs; readers report such lines as problems).
 */
function recover(descriptor: number): RunFileRecovery {
  const text = readWhole(descriptor);
  if (text === '') return { lastSeq: null };
  let tornTail: RunFileRecovery['tornTail'];
  let body = text;
  const lastNewline = text.lastIndexOf('\n');
  const tail = text.slice(lastNewline + 1);
  if (tail.trim() !== '') {
    if (RunEventSchema.safeParse(jsonOrUndefined(tail)).success) {
      writeAll(descriptor, '\n');
      body = `${text}\n`;
    } else {
      const keep = Buffer.byteLength(text.slice(0, lastNewline + 1), 'utf8');
      ftruncateSync(descriptor, keep);
      tornTail = { line: text.slice(0, lastNewline + 1).split('\n').length, characters: tail.length };
      body = text.slice(0, lastNewline + 1);
    }
  }
  let highest: number | null = null;
  for (const line of (body.startsWith(BYTE_ORDER_MARK) ? body.slice(1) : body).split('\n')) {
    const seq = seqOf(line);
    if (seq !== null && (highest === null || seq > highest)) highest = seq;
  }
  return tornTail ? { lastSeq: highest, tornTail } : { lastSeq: highest };
}

/**
 * Opens (or creates, with its folders) a run file for appending. Each event is written with one
 * synchronous append as it happens, so a crash loses nothing that finished. Reopening an existing
 * file continues its seq, for resume.
 *
 * Keys: the event schema has no field for a key, and every event passes RunEventSchema before it
 * is written, which drops properties the schema does not know (an `apiKey` slipped into a config
 * object never reaches disk). `secrets` adds a last line of defence for key values that end up
 * inside text, such as an error message that echoes a request.
 */
export function openRunFile(path: string, options: OpenRunFileOptions = {}): RunFileWriter {
  const now = options.now ?? (() => new Date());
  // A secret with quotes or backslashes appears escaped inside a JSON line; look for both spellings.
  const secrets = (options.secrets ?? [])
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .flatMap((secret) => [...new Set([JSON.stringify(secret).slice(1, -1), secret])]);
  let lock: ReturnType<typeof lockRunFile>;
  try {
    mkdirSync(dirname(path), { recursive: true });
    lock = lockRunFile(path, options.lock);
  } catch (error) {
    throw diskError(path, error, existsSync(path));
  }
  let descriptor: number | null;
  let recovery: RunFileRecovery;
  try {
    descriptor = openSync(path, 'a+');
    recovery = recover(descriptor);
  } catch (error) {
    lock.release();
    throw diskError(path, error, existsSync(path));
  }
  let nextSeq = recovery.lastSeq === null ? 0 : recovery.lastSeq + 1;
  const references = new ReplyReferences();

  function append(draft: RunEventDraft): RunEvent {
    if (descriptor === null) throw new RunFileWriteError('E_RUN_FILE_CLOSED', `${path}: the run file is closed; cannot append a ${draft.type} event.`);
    const candidate = { ...draft, seq: nextSeq, time: draft.time ?? now().toISOString() };
    const checked = RunEventSchema.safeParse(candidate);
    if (!checked.success) {
      throw new RunFileWriteError('E_RUN_EVENT_INVALID', `${path}: refusing to write an invalid ${draft.type} event: ${describeIssues(checked.error.issues)}`);
    }
    // A reply the other arm of the round already stored is written as a reference to it; the event handed
    // back has it restored, as every reader would (a reply cut at STORED_REPLY_BYTES comes back cut).
    // A reply past STORED_REPLY_BYTES (a raised reply cap) is kept up to it, its size recorded.
    const referred = references.refer(checked.data);
    const { restore } = referred;
    const stored = capStoredReply(referred.stored, secrets);
    let line = JSON.stringify(stored);
    let event = stored;
    if (secrets.some((secret) => line.includes(secret))) {
      for (const secret of secrets) line = line.split(secret).join(REDACTED);
      event = RunEventSchema.parse(JSON.parse(line));
    }
    event = restore(event);
    try {
      writeAll(descriptor, line, options.writeSync, true);
      if (options.sync) fsyncSync(descriptor);
    } catch (error) {
      throw diskError(path, error, nextSeq > 0);
    }
    nextSeq += 1;
    return event;
  }

  return {
    path,
    recovery,
    get nextSeq() {
      return nextSeq;
    },
    append,
    close() {
      if (descriptor === null) return;
      closeSync(descriptor);
      descriptor = null;
      lock.release();
    },
  };
}
