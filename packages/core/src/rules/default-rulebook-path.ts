import { createRequire } from 'node:module';

/**
 * The rulebooks the core ships in its own `rulebooks/` (the repository's root `rulebooks/` links to
 * it), resolved through the package's exports rather than by a path relative to this file: the gate's
 * hook bundle carries this code in another package, where a relative path would point elsewhere.
 * A file of its own, so a caller that needs only the path (the live hook) does not load the parser.
 */
export function shippedRulebookFile(name: 'default' | 'judged'): string {
  return createRequire(import.meta.url).resolve(`@holdfast/core/rulebooks/${name}.yaml`);
}

/** The shipped default rulebook: the six rules of the seed experiment. */
export function defaultRulebookPath(): string {
  return shippedRulebookFile('default');
}
