import type { z } from 'zod';
import { InputError, RunEventSchema, safeParseJson } from '@holdfast/core/contract';
import type { RunEvent } from '@holdfast/core/contract';
import { ReplyReferences } from './reply-references.js';

/**
 * One line of a run file that could not be read. `torn` is a final line without its newline that
 * does not parse: the writer was stopped mid-line (a crash), so nothing after it was lost.
 */
export interface RunFileProblem {
  /** 1-based line number in the file. */
  line: number;
  /** `seq`: a seq seen before (a second writer, a copied line), lower than one before it, or impossibly large. */
  kind: 'torn' | 'json' | 'schema' | 'seq';
  /** A whole sentence naming the file and the line: `runs/x.jsonl line 17: field result.verdict: …`. */
  message: string;
}

export interface RunFileContents {
  events: RunEvent[];
  problems: RunFileProblem[];
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length === 0 ? 'the line' : `field ${formatPath(issue.path)}`;
  if (issue.code === 'invalid_value') return `${where}: expected one of ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
    return `${where}: expected one of ${issue.options.map(String).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return `${where}: missing (expected ${issue.expected})`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** Zod's issues as one sentence; the first three are enough to find the fault. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map(describeIssue);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}

export const BYTE_ORDER_MARK = '\uFEFF';

/** Far beyond any run (a billion events), yet far from where doubles stop counting exactly. */
const MAX_RUN_SEQ = 2 ** 40;

/** Whether a value is a seq a run file can hold. */
export function isRunSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_RUN_SEQ;
}

function problemAt(file: string, line: number, kind: RunFileProblem['kind'], what: string): RunFileProblem {
  return { line, kind, message: `${file} line ${line}: ${what}` };
}

/** What one line of a run file holds: nothing (blank), an event, or a problem naming the line. */
export type RunFileLine =
  { readonly kind: 'blank' } | { readonly kind: 'event'; readonly event: RunEvent } | { readonly kind: 'problem'; readonly problem: RunFileProblem };

/**
 * Reads one line of a run file (`lineNumber` 1-based). `terminated` is false for a last line with
 * no newline after it: one that does not parse was cut off mid-write, a `torn` problem. The one
 * line reader of run files, for whole texts here and for the web app's streamed download.
 */
export function readRunFileLine(raw: string, lineNumber: number, file: string, terminated: boolean): RunFileLine {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return { kind: 'blank' };
  const parsed = safeParseJson(line);
  if (!parsed.ok) {
    return {
      kind: 'problem',
      problem: terminated
        ? problemAt(file, lineNumber, 'json', `not JSON (${parsed.error})`)
        : problemAt(file, lineNumber, 'torn', `the last line was cut off mid-write (${line.length} characters, no newline); skipped`),
    };
  }
  const seq = (parsed.value as { seq?: unknown } | null)?.seq;
  if (typeof seq === 'number' && !isRunSeq(seq)) {
    return {
      kind: 'problem',
      problem: problemAt(
        file,
        lineNumber,
        'seq',
        `seq ${seq} is not a run's event number (a whole number from 0 to ${MAX_RUN_SEQ}); the line is corrupt and was skipped`,
      ),
    };
  }
  const result = RunEventSchema.safeParse(parsed.value);
  return result.success
    ? { kind: 'event', event: result.data }
    : { kind: 'problem', problem: problemAt(file, lineNumber, 'schema', describeIssues(result.error.issues)) };
}

/**
 * Reads a run file's text leniently: every line is validated against RunEventSchema, a bad line
 * becomes a problem naming its number and fault, and every good line stays readable. Blank lines
 * are ignored. `file` is only used to name the file in the messages.
 */
export function safeParseRunFileText(text: string, file: string): RunFileContents {
  const events: RunEvent[] = [];
  const problems: RunFileProblem[] = [];
  // Editors on Windows save UTF-8 with a byte order mark; it is not part of the first event.
  const lines = (text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text).split('\n');
  const firstLineOfSeq = new Map<number, number>();
  let highest = -1;
  // A file that ends with a newline splits into a last empty string; any other last piece was
  // never terminated.
  const lastIndex = lines.length - 1;
  const references = new ReplyReferences();
  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1;
    const read = readRunFileLine(lines[index] ?? '', lineNumber, file, index !== lastIndex);
    if (read.kind === 'problem') problems.push(read.problem);
    if (read.kind !== 'event') continue;
    const event = references.resolve(read.event);
    const earlier = firstLineOfSeq.get(event.seq);
    if (earlier !== undefined) {
      problems.push(problemAt(file, lineNumber, 'seq', `seq ${event.seq} already appeared on line ${earlier}: a second writer or a copied line; skipped`));
      continue;
    }
    firstLineOfSeq.set(event.seq, lineNumber);
    if (event.seq < highest) {
      problems.push(problemAt(file, lineNumber, 'seq', `seq ${event.seq} comes after seq ${highest}: the line was appended out of order; read in file order`));
    }
    highest = Math.max(highest, event.seq);
    events.push(event);
  }
  return { events, problems };
}

/** Strict twin of safeParseRunFileText: the first bad line (torn or not) throws an InputError. */
export function parseRunFileText(text: string, file: string): RunEvent[] {
  const { events, problems } = safeParseRunFileText(text, file);
  const first = problems[0];
  if (first !== undefined) {
    const more = problems.length > 1 ? ` (${problems.length - 1} more bad lines)` : '';
    throw new InputError('E_RUN_FILE', `${first.message}${more}`);
  }
  return events;
}
