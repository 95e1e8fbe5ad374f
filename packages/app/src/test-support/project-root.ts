import { join } from 'node:path';
import { appRoot } from '../frontend.js';

/** The clone this app was built in (its runs/ and shipped examples): for tests and the bench, never shipped code. */
export function projectRoot(): string {
  return join(appRoot(), '..', '..');
}
