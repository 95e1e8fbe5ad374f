import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeFile, writeAtomically } from '../io/index.js';
import { ensureSessionMirrorFolder, sessionMirrorFolder, sessionStatePath } from './session-state.js';
import { sealText, unsealText } from './state-seal.js';

/**
 * One of the gate's own state files, as read back: `missing` (never written, or removed by the gate),
 * `valid` (sealed by the gate for this purpose; `putBack` when the project's copy was deleted or
 * changed and was written again from the mirror), or `invalid`: a file no seal verifies and no mirror
 * vouches for. Invalid is never read as missing: each caller says what failing closed means for it.
 */
export type SealedState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'valid'; readonly body: string; readonly putBack?: 'deleted' | 'changed' }
  | { readonly kind: 'invalid'; readonly why: string };

/** A sealed file's two places: in the project (what a person reads) and in the mirror outside it (the authority). */
export interface SealedPlace {
  /** The project whose state it is. */
  readonly root: string;
  readonly local: string;
  readonly mirror: string;
  /** What the seal is made for: a file sealed for one purpose (another session, another kind) does not stand in for another. */
  readonly purpose: string;
}

/** A session's file beside its record (`.stops`, `.outside`, `.ignores`), mirrored where the record is. */
export function sessionFilePlace(root: string, session: string, extension: '.outside' | '.ignores' | '.stops'): SealedPlace {
  const local = sessionStatePath(root, session, extension);
  return { root, local, mirror: join(sessionMirrorFolder(root), basename(local)), purpose: `session${extension}\0${basename(local)}` };
}

type Read = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'forged' } | { kind: 'valid'; body: string; text: string };

function readOne(path: string, purpose: string): Read {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable' };
  }
  const body = unsealText(purpose, text);
  return body === undefined ? { kind: 'forged' } : { kind: 'valid', body, text };
}

/**
 * Reads a sealed state file. The mirror is the authority: a project copy that is missing or differs
 * from it (deleted, edited, replayed) is written again from it. Without a mirror (no home to keep one
 * in) the project's copy counts when its seal verifies. Never throws.
 */
export function readSealedState(place: SealedPlace): SealedState {
  const mirror = readOne(place.mirror, place.purpose);
  const local = readOne(place.local, place.purpose);
  if (mirror.kind === 'valid') {
    if (local.kind === 'valid' && local.text === mirror.text) return { kind: 'valid', body: mirror.body };
    try {
      mkdirSync(dirname(place.local), { recursive: true });
      writeAtomically(place.local, mirror.text);
    } catch {
      // the mirror is what counts; the project's copy is written again at the next save
    }
    return { kind: 'valid', body: mirror.body, putBack: local.kind === 'missing' ? 'deleted' : 'changed' };
  }
  if (mirror.kind === 'missing') {
    if (local.kind === 'missing') return { kind: 'missing' };
    if (local.kind === 'valid') return { kind: 'valid', body: local.body };
    return { kind: 'invalid', why: `${place.local} ${local.kind === 'unreadable' ? 'cannot be read' : 'is not one the gate wrote (no valid seal)'}` };
  }
  return { kind: 'invalid', why: `the mirror of ${place.local} outside the project (${place.mirror}) is not one the gate wrote` };
}

/** Seals the body and writes it atomically in the project and in the mirror (a mirror that cannot be written is skipped). */
export function writeSealedState(place: SealedPlace, body: string): void {
  const text = sealText(place.purpose, body);
  mkdirSync(dirname(place.local), { recursive: true });
  writeAtomically(place.local, text);
  try {
    ensureSessionMirrorFolder(place.root);
    writeAtomically(place.mirror, text);
  } catch {
    // without a home to mirror into, the sealed project copy is the record (a replay of it is not seen)
  }
}

/** Removes both copies: the gate's own reset (a removal by anything else is put back from the mirror). */
export function removeSealedState(place: SealedPlace): void {
  removeFile(place.local);
  try {
    removeFile(place.mirror);
  } catch {
    // no mirror to remove
  }
}

/** Whether the gate wrote the file and has not removed it: its mirror or its project copy is there. */
export function sealedStateExists(place: SealedPlace): boolean {
  return existsSync(place.mirror) || existsSync(place.local);
}
