import type { ParseMethod, ParsedReply } from '../contract/index.js';
import { describeType, failsActionChecks, isRecord, quote, validateActions } from './validate-actions.js';

/** What one parsed JSON value says, before the values found in a reply are combined. */
export type Reading =
  | { readonly shape: 'reply'; readonly origin: ParseMethod; readonly actions: readonly unknown[]; readonly reasoning?: string; readonly bare: boolean }
  | { readonly shape: 'decline'; readonly origin: ParseMethod; readonly reason: string }
  | { readonly shape: 'reasoning'; readonly origin: ParseMethod; readonly reasoning: string }
  | { readonly shape: 'action'; readonly origin: ParseMethod; readonly action: unknown }
  | { readonly shape: 'invalid'; readonly reason: string }
  | { readonly shape: 'other'; readonly description: string };

/**
 * The readings of one stage, in order. Validation stops at the first action that fails, so once
 * an action object that can never pass is kept, every later action object can only be counted,
 * never read: it is kept as that failing one again and its own value is dropped at once. A reply
 * of 83,000 `{"type":"x"}` objects keeps one of them, not all (keeping them all made the
 * collector's work grow faster than the text).
 */
export class ReadingList {
  readonly readings: Reading[] = [];
  #failingAction: Reading | undefined;

  add(reading: Reading): void {
    if (reading.shape === 'action') {
      if (this.#failingAction !== undefined) {
        this.readings.push(this.#failingAction);
        return;
      }
      if (failsActionChecks(reading.action)) this.#failingAction = reading;
    }
    this.readings.push(reading);
  }
}

const NO_REASON = 'the model declined without giving a reason';

/**
 * Classifies a parsed value. A top-level array is accepted as the action list when it holds
 * objects with a `type` (some models drop the wrapper), and an array of reply objects is read
 * element by element, as concatenated objects are.
 */
export function readValue(value: unknown, origin: ParseMethod): Reading[] {
  if (Array.isArray(value)) return readArray(value, origin);
  if (!isRecord(value)) return [{ shape: 'other', description: `a JSON ${describeType(value).replace(/^an? /, '')}` }];
  const decline = declineReason(value);
  const actions = value['actions'];
  const hasActions = Object.hasOwn(value, 'actions');
  if (decline !== undefined) {
    if (Array.isArray(actions) && actions.length > 0) {
      return [
        {
          shape: 'invalid',
          reason: `the reply declines (${quote(decline)}) but also lists ${actions.length} action${actions.length === 1 ? '' : 's'}; refusing to guess which is meant`,
        },
      ];
    }
    return [{ shape: 'decline', origin, reason: decline }];
  }
  if (hasActions) {
    if (!Array.isArray(actions)) return [{ shape: 'invalid', reason: `field "actions" must be an array, got ${describeType(actions)}` }];
    const reasoning = reasoningOf(value);
    return [{ shape: 'reply', origin, actions, bare: false, ...(reasoning === undefined ? {} : { reasoning }) }];
  }
  if (typeof value['type'] === 'string') return [{ shape: 'action', origin, action: value }];
  const reasoning = reasoningOf(value);
  if (reasoning !== undefined) return [{ shape: 'reasoning', origin, reasoning }];
  const keys = Object.keys(value);
  const shown = keys
    .slice(0, 5)
    .map((key) => quote(key, 30))
    .join(', ');
  return [{ shape: 'other', description: keys.length === 0 ? 'an empty JSON object' : `a JSON object with keys ${shown}${keys.length > 5 ? ', …' : ''}` }];
}

function readArray(value: readonly unknown[], origin: ParseMethod): Reading[] {
  if (value.length === 0) return [{ shape: 'reply', origin, actions: [], bare: true }];
  const records = value.filter(isRecord);
  if (records.some((item) => Object.hasOwn(item, 'actions') || declineReason(item) !== undefined)) {
    return value.flatMap((item) => readValue(item, origin));
  }
  if (records.some((item) => Object.hasOwn(item, 'type'))) return [{ shape: 'reply', origin, actions: value, bare: true }];
  return [{ shape: 'other', description: 'a JSON array without actions' }];
}

/** The explicit decline forms: `{"decline": "why"}`, `{"declined": true, "reason": "why"}`, `{"refusal": "why"}`. */
function declineReason(value: Record<string, unknown>): string | undefined {
  const decline = value['decline'] ?? value['declined'];
  if (typeof decline === 'string' && decline.trim() !== '') return decline.trim();
  if (decline === true) return firstText(value['reason'], value['reasoning'], value['message']) ?? NO_REASON;
  const refusal = value['refusal'];
  if (typeof refusal === 'string' && refusal.trim() !== '') return refusal.trim();
  return undefined;
}

function reasoningOf(value: Record<string, unknown>): string | undefined {
  const reasoning = value['reasoning'];
  if (Array.isArray(reasoning) && reasoning.every((line) => typeof line === 'string')) {
    return firstText(reasoning.join('\n'));
  }
  return firstText(reasoning);
}

function firstText(...candidates: unknown[]): string | undefined {
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return undefined;
}

export interface CombineOptions {
  /** Bare action objects (`{"type": "run", …}` with no wrapper) count only when the answer holds nothing but JSON. */
  readonly bareActions: boolean;
  /** The method reported when more than one value contributed. */
  readonly merged: ParseMethod;
}

/**
 * Turns the readings of one stage into a reply, or undefined when they hold no reply at all.
 *
 * Several reply objects (small models emit `{…}{…}`) are merged in order: their action lists are
 * concatenated, and exact duplicates (a model repeating itself) are kept once. Taking only the
 * first would silently drop actions the gate must see; failing would score a salvageable reply
 * as unparseable. A merge is reported as `salvaged`. An empty action list with reasoning is a
 * decline; a decline next to actions is contradictory and unparseable.
 */
export function combineReadings(readings: readonly Reading[], options: CombineOptions): ParsedReply | undefined {
  const invalid = readings.find((reading) => reading.shape === 'invalid');
  if (invalid !== undefined) return { kind: 'unparseable', reason: invalid.reason };

  const hasReply = readings.some((reading) => reading.shape === 'reply');
  const useBare = options.bareActions && readings.some((reading) => reading.shape === 'action');
  if (!hasReply && !useBare) return declineOf(readings, options, 0);

  // Repeats are looked for only when more than one value could repeat another: fingerprinting a
  // lone reply would write its whole action list out as text for nothing.
  const seen = countListsAndReasonings(readings) > 1 ? new Set<string>() : undefined;
  let origins = 0;
  let origin: ParseMethod | undefined;
  // The action lists in order, joined only when there is more than one: a lone reply's list is
  // used as it is, not copied action by action.
  const lists: Array<readonly unknown[]> = [];
  let loose: unknown[] | undefined;
  const reasonings: string[] = [];
  let explicitList = false;
  for (const reading of readings) {
    if (reading.shape === 'action') {
      if (!useBare) continue;
      if (loose === undefined) {
        loose = [];
        lists.push(loose);
      }
      loose.push(reading.action);
      origins += 1;
      origin ??= reading.origin;
      continue;
    }
    if (reading.shape !== 'reply' && reading.shape !== 'reasoning') continue;
    // A repeated object still counts towards the method: the text was not one clean object.
    origins += 1;
    origin ??= reading.origin;
    const key = seen === undefined ? undefined : fingerprint(reading);
    if (key !== undefined && seen?.has(key) === true) continue;
    if (key !== undefined) seen?.add(key);
    if (reading.shape === 'reply') {
      lists.push(reading.actions);
      loose = undefined;
      explicitList ||= !reading.bare;
    }
    if (reading.reasoning !== undefined) reasonings.push(reading.reasoning);
  }
  const actions = lists.length === 1 ? (lists[0] as readonly unknown[]) : joinLists(lists);
  const declined = declineOf(readings, options, actions.length);
  if (declined !== undefined) return declined;

  const method = origins === 1 && origin !== undefined ? origin : options.merged;
  const reasoning = reasonings.length === 0 ? undefined : reasonings.join('\n\n');
  if (actions.length === 0 && reasoning !== undefined && explicitList) return { kind: 'declined', method, reason: reasoning };
  const validated = validateActions(actions);
  if (!validated.ok) return { kind: 'unparseable', reason: validated.reason };
  return { kind: 'actions', method, actions: validated.actions, ...(reasoning === undefined ? {} : { reasoning }) };
}

function countListsAndReasonings(readings: readonly Reading[]): number {
  let count = 0;
  for (const reading of readings) if (reading.shape === 'reply' || reading.shape === 'reasoning') count += 1;
  return count;
}

function joinLists(lists: ReadonlyArray<readonly unknown[]>): unknown[] {
  const joined: unknown[] = [];
  // One push per action: a spread of a huge list (a hostile reply) overflows the call stack.
  for (const list of lists) for (const action of list) joined.push(action);
  return joined;
}

function declineOf(readings: readonly Reading[], options: CombineOptions, actionCount: number): ParsedReply | undefined {
  const declines = readings.flatMap((reading) => (reading.shape === 'decline' ? [reading] : []));
  const first = declines[0];
  if (first === undefined) return undefined;
  if (actionCount > 0) {
    return {
      kind: 'unparseable',
      reason: `the reply both declines (${quote(first.reason)}) and lists ${actionCount} action${actionCount === 1 ? '' : 's'}; refusing to guess which is meant`,
    };
  }
  const alone = readings.every((reading) => reading.shape === 'decline' || reading.shape === 'other');
  return { kind: 'declined', method: alone && declines.length === 1 ? first.origin : options.merged, reason: first.reason };
}

function fingerprint(reading: Reading): string | undefined {
  try {
    return JSON.stringify(
      reading.shape === 'reply' ? [reading.actions, reading.reasoning ?? null] : [null, reading.shape === 'reasoning' ? reading.reasoning : null],
    );
  } catch {
    // Pathologically deep values overflow the stack; such a value is simply never deduplicated.
    return undefined;
  }
}
