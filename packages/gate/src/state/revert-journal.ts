import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from '../io/index.js';
import { snapshotStorePath } from './snapshot-store.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** How long the gate remembers its own reverts: as long as a call's snapshot is kept. */
const JOURNAL_MS = 24 * 60 * 60 * 1000;
/** Past this size the journal is rewritten with the last day's lines only. */
const COMPACT_BYTES = 256 * 1024;

/** One change the gate itself made while putting a path back: content `from` replaced by `to` (null: absent). */
export interface GateRevert {
  readonly path: string;
  readonly from: string | null;
  readonly to: string | null;
}

function revertJournal(root: string): string {
  return join(snapshotStorePath(root), 'reverts.jsonl');
}

/**
 * Remembers what the gate put back, so an overlapping call whose window covers the revert does not
 * take the gate's own change for the call's and undo it. Lines are small appends.
 */
export function journalReverts(root: string, reverts: readonly GateRevert[], now: Date): void {
  if (reverts.length === 0) return;
  const time = now.getTime();
  const path = revertJournal(root);
  appendFileSync(path, reverts.map((revert) => `${JSON.stringify({ ...revert, time })}\n`).join(''));
  try {
    if (statSync(path).size > COMPACT_BYTES) writeAtomically(path, recentLines(readFileSync(path, 'utf8'), now).join(''));
  } catch {
    // compaction only saves reading time; the journal stays valid without it
  }
}

/** The lines of the last day, each with its newline. */
function recentLines(text: string, now: Date): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    // A torn line is skipped.
    const entry = jsonOrUndefined(line) as Partial<GateRevert & { time: number }> | null | undefined;
    if (typeof entry?.path === 'string' && typeof entry.time === 'number' && now.getTime() - entry.time <= JOURNAL_MS) lines.push(`${line}\n`);
  }
  return lines;
}

/** The gate's reverts of the last day, as `path\0from\0to` keys. */
export function recentReverts(root: string, now: Date): Set<string> {
  let text: string;
  try {
    text = readFileSync(revertJournal(root), 'utf8');
  } catch {
    return new Set();
  }
  return new Set(
    recentLines(text, now).map((line) => {
      const entry = JSON.parse(line) as GateRevert;
      return revertKey({ path: entry.path, from: entry.from ?? null, to: entry.to ?? null });
    }),
  );
}

export function revertKey(revert: GateRevert): string {
  return `${revert.path}\0${revert.from ?? ''}\0${revert.to ?? ''}`;
}
