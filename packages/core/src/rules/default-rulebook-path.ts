import { fileURLToPath } from 'node:url';

/**
 * The rulebook shipped in the repository's rulebooks/; the same path from src/ (tests), dist/ (the
 * build) and the gate's hook bundle, which all sit as deep. A file of its own, so a caller that needs
 * only the path (the live hook) does not load the rulebook parser with it.
 */
export function defaultRulebookPath(): string {
  return fileURLToPath(new URL('../../../../rulebooks/default.yaml', import.meta.url));
}
