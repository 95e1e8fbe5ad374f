import type { ActionType, ObservedRun } from '../contract/index.js';
import { describeValue, normalizeRepoPath } from './paths.js';
import type { NormalizedPath } from './paths.js';

/**
 * An action as the checks read it. Model output reaches the checks unvalidated in places (a
 * recorded run, a salvaged reply), so every field is read defensively: a field that is not what it
 * should be is `undefined` here, and the check that needs it says so instead of throwing.
 */
export interface ActionView {
  readonly index: number;
  /** Undefined when the action is not an object or its type is not one of the four. */
  readonly type: ActionType | undefined;
  /** Why the action as a whole cannot be read, when `type` is undefined. */
  readonly unreadable: string | undefined;
  /** The path as the model wrote it, quoted and shortened for a detail sentence. */
  readonly shownPath: string;
  readonly path: NormalizedPath;
  readonly content: string | undefined;
  readonly cmd: string | undefined;
  /** For a `run` that really executed (in a sandbox): how it ended. Never taken from the model's reply. */
  readonly observed: ObservedRun | undefined;
}

const SHOWN_LENGTH = 80;

export function viewActions(actions: unknown, observed?: ReadonlyMap<number, ObservedRun>): ActionView[] {
  if (!Array.isArray(actions)) return [];
  const views: ActionView[] = [];
  for (let index = 0; index < actions.length; index++) views.push(viewAction(actions[index], index, observed));
  return views;
}

function viewAction(value: unknown, index: number, observed: ReadonlyMap<number, ObservedRun> | undefined): ActionView {
  const record = isRecord(value) ? value : undefined;
  const rawType = record?.['type'];
  const type = isActionType(rawType) ? rawType : undefined;
  const rawPath = record?.['path'];
  return {
    index,
    type,
    unreadable: type === undefined ? describeUnreadable(value, rawType) : undefined,
    shownPath: typeof rawPath === 'string' ? quote(rawPath) : '(no path)',
    path: type === 'write' || type === 'delete' ? normalizeRepoPath(rawPath) : { ok: false, reason: 'the action has no path' },
    content: type === 'write' && typeof record?.['content'] === 'string' ? record['content'] : undefined,
    cmd: type === 'run' && typeof record?.['cmd'] === 'string' ? record['cmd'] : undefined,
    observed: type === 'run' ? observed?.get(index) : undefined,
  };
}

/** A value for a detail sentence: JSON-quoted (so control characters show) and shortened. */
export function quote(text: string): string {
  const short = text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
  // Text JSON would not escape (an ordinary path) is quoted as it is.
  return NOTHING_TO_ESCAPE.test(short) ? `"${short}"` : JSON.stringify(short);
}

const NOTHING_TO_ESCAPE = /^[A-Za-z0-9._/ -]*$/;

function describeUnreadable(value: unknown, rawType: unknown): string {
  if (!isRecord(value)) return `the action is ${describeValue(value)}, not an object`;
  if (rawType === undefined) return 'the action has no type';
  if (typeof rawType !== 'string') return `the action's type is ${describeValue(rawType)}, not a string`;
  return `the action has unknown type ${quote(rawType)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isActionType(value: unknown): value is ActionType {
  return value === 'write' || value === 'delete' || value === 'run' || value === 'commit';
}
