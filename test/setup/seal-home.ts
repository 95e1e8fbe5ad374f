import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { useSealHomeForTests } from '@holdfast/gate/test-support';

/*
 * Every test file's in-process gate keeps its seal key and mirrors in a folder of its own, removed
 * after the file: nothing under the machine's ~/.local/state/holdfast. Set by a call in this process
 * (state-seal.ts), which no environment variable an agent sets can reach.
 */
const home = mkdtempSync(join(tmpdir(), 'holdfast-seal-home-'));
useSealHomeForTests(home);

afterAll(() => {
  useSealHomeForTests(undefined);
  rmSync(home, { recursive: true, force: true });
});
