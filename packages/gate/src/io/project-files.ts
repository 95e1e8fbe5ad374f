import { readText } from '@holdfast/core/rules';
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** Reads a file the agent is about to change; undefined when it does not exist or is not readable. */
export type ReadText = (absolutePath: string) => string | undefined;

export const readTextFromDisk: ReadText = (absolutePath) => {
  try {
    return readText(readFileSync(absolutePath));
  } catch {
    return undefined;
  }
};

/**
 * Agents send absolute paths; rules judge paths relative to the project root. A path outside the root
 * comes out as `../…`, which the scope rule refuses, which is the point.
 */
export function toRepoPath(cwd: string, path: string): string {
  const relativePath = isAbsolute(path) ? relative(cwd, path) : path;
  return sep === '/' ? relativePath : relativePath.split(sep).join('/');
}
