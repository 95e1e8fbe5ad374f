import { readJsonFile } from './json-file.js';

/**
 * holdfast's own version, from its package.json: two folders up from this file whether it runs from
 * src/contract, dist/contract or the hook bundle in dist/hook-bundle. Empty when the file cannot be read.
 */
export function packageVersion(): string {
  const manifest = readJsonFile(new URL('../../package.json', import.meta.url));
  const version = typeof manifest === 'object' && manifest !== null ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : '';
}
