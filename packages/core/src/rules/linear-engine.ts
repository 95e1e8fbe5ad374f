import { createRequire } from 'node:module';
import type { LinearSource } from './linear-source.js';

/** The V8 option that enables RegExp flag `l` (the engine without backtracking). */
export const LINEAR_ENGINE_FLAG = '--enable-experimental-regexp-engine';

let available: boolean | undefined;

function acceptsFlag(): boolean {
  try {
    // eslint-disable-next-line no-invalid-regexp -- flag l exists only with LINEAR_ENGINE_FLAG set: that is what this asks
    return new RegExp('', 'l').flags.includes('l');
  } catch {
    return false;
  }
}

/**
 * Whether this process can build `l` regexes. Started with LINEAR_ENGINE_FLAG it can at once;
 * otherwise the option is set through node:v8 (loaded only here: a hook that matches no pattern
 * never pays for it). A node whose V8 lacks the engine answers false, and patterns stay on re2js.
 */
export function linearEngineAvailable(): boolean {
  if (available !== undefined) return available;
  available = acceptsFlag();
  if (!available) {
    try {
      (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(LINEAR_ENGINE_FLAG);
    } catch {
      // no node:v8 here (a permission model): re2js it is
    }
    available = acceptsFlag();
  }
  return available;
}

/**
 * The regex for a translated pattern on V8's linear-time engine, or undefined where V8 refuses it
 * (the engine bounds repetition counts and program size) or lacks the engine. V8 throws rather than
 * build an `l` regex it cannot run in linear time, so a regex returned here cannot backtrack.
 */
export function linearRegExp(translation: LinearSource): RegExp | undefined {
  if (!linearEngineAvailable()) return undefined;
  try {
    return new RegExp(translation.source, translation.multiline ? 'lm' : 'l');
  } catch {
    return undefined;
  }
}
