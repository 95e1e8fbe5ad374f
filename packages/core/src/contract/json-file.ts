import { readFileSync } from 'node:fs';
import { jsonOrUndefined } from './json.js';

/**
 * A JSON file holdfast keeps for itself (a cache, a session record), or undefined when it is missing,
 * unreadable or torn: the caller then starts over, never fails on it.
 */
export function readJsonFile(path: string | URL): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return jsonOrUndefined(text);
}
