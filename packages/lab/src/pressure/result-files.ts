import { PressureRecordSchema, PressureResponseLineSchema, safeParseJson } from '@holdfast/core/contract';
import type { PressureRecord, PressureResponseLine } from '@holdfast/core/contract';
import type { z } from 'zod';
import { PressureFileError } from './refusal.js';

function parseJsonLines<S extends z.ZodType>(schema: S, text: string, file: string): z.infer<S>[] {
  const lines: z.infer<S>[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const json = safeParseJson(line);
    if (!json.ok) throw new PressureFileError(file, index + 1, 'not valid JSON', { cause: json.cause });
    const parsed = schema.safeParse(json.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PressureFileError(file, index + 1, `${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'invalid'}`);
    }
    lines.push(parsed.data);
  });
  return lines;
}

/** Reads a responses file (`{fixture_id, response, target?, rep?}` a line); throws on the first bad line. */
export function parsePressureResponses(text: string, file: string): PressureResponseLine[] {
  return parseJsonLines(PressureResponseLineSchema, text, file);
}

/** Reads a pressure results file written by `pressure run` or `pressure report`. */
export function parsePressureRecords(text: string, file: string): PressureRecord[] {
  return parseJsonLines(PressureRecordSchema, text, file);
}

export function safeParsePressureResponses(text: string, file: string): { ok: true; lines: PressureResponseLine[] } | { ok: false; error: PressureFileError } {
  try {
    return { ok: true, lines: parsePressureResponses(text, file) };
  } catch (error) {
    if (error instanceof PressureFileError) return { ok: false, error };
    throw error;
  }
}

export function safeParsePressureRecords(text: string, file: string): { ok: true; records: PressureRecord[] } | { ok: false; error: PressureFileError } {
  try {
    return { ok: true, records: parsePressureRecords(text, file) };
  } catch (error) {
    if (error instanceof PressureFileError) return { ok: false, error };
    throw error;
  }
}

/** One record as one JSONL line, newline included. */
export function formatPressureRecord(record: PressureRecord): string {
  return `${JSON.stringify(record)}\n`;
}
