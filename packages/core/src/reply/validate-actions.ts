import { ACTION_TYPES, ActionSchema } from '../contract/index.js';
import type { Action, ActionType } from '../contract/index.js';

export type ActionsResult = { readonly ok: true; readonly actions: Action[] } | { readonly ok: false; readonly reason: string };

/**
 * The string fields each action type needs. The compiler checks the names against the contract;
 * the schema parse after these checks catches any field added to the contract but not here.
 */
const REQUIRED_FIELDS: { readonly [T in ActionType]: ReadonlyArray<Exclude<keyof Extract<Action, { type: T }>, 'type'>> } = {
  write: ['path', 'content'],
  delete: ['path'],
  run: ['cmd'],
  commit: ['message'],
};

const EXPECTED_TYPES = `${ACTION_TYPES.slice(0, -1).join(', ')} or ${ACTION_TYPES[ACTION_TYPES.length - 1] ?? ''}`;

/**
 * Checks every action against the contract, strictly: an unknown type or a missing or ill-typed
 * field rejects the whole list with the index and field named. A gate must never silently drop an
 * action, and a near-miss (`command` for `cmd`) is not guessed at. Unknown extra keys are dropped.
 */
export function validateActions(list: readonly unknown[]): ActionsResult {
  const actions: Action[] = [];
  for (const [index, candidate] of list.entries()) {
    const problem = actionProblem(candidate);
    if (problem !== undefined) return { ok: false, reason: `action ${index}${problem}` };
    const parsed = ActionSchema.safeParse(candidate);
    if (!parsed.success) {
      return { ok: false, reason: `action ${index}: ${parsed.error.issues[0]?.message ?? 'does not match the contract'}` };
    }
    actions.push(parsed.data);
  }
  return { ok: true, actions };
}

/**
 * Whether a candidate fails the field checks, so it can never become an action. Some candidates
 * that pass still fail the schema; false only means "not ruled out yet".
 */
export function failsActionChecks(candidate: unknown): boolean {
  return actionProblem(candidate) !== undefined;
}

function actionProblem(candidate: unknown): string | undefined {
  if (!isRecord(candidate)) return `: expected an object, got ${describeType(candidate)}`;
  if (!Object.hasOwn(candidate, 'type')) return `: field "type" is missing; expected ${EXPECTED_TYPES}`;
  const type = candidate['type'];
  if (typeof type !== 'string') return `: field "type" must be a string, got ${describeType(type)}`;
  if (!isActionType(type)) return `: unknown type ${quote(type)}; expected ${EXPECTED_TYPES}`;
  for (const field of REQUIRED_FIELDS[type]) {
    if (!Object.hasOwn(candidate, field)) return ` (${type}): field "${field}" is missing`;
    const value = candidate[field];
    if (typeof value !== 'string') return ` (${type}): field "${field}" must be a string, got ${describeType(value)}`;
  }
  return undefined;
}

function isActionType(type: string): type is ActionType {
  return (ACTION_TYPES as readonly string[]).includes(type);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** A model-supplied string for a message: quoted, and cut so a huge value cannot flood a log line. */
export function quote(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
