import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The fixtures folder of the project in `cwd`, or the suite the lab ships in its own
 * `fixtures/pressure/` (the repository's root `fixtures/pressure/` links to it) when it has none.
 */
export function defaultFixturesDir(cwd: string): string {
  const local = join(cwd, 'fixtures', 'pressure');
  if (existsSync(local)) return local;
  return fileURLToPath(new URL('../../fixtures/pressure', import.meta.url));
}
