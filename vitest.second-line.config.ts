import { defineConfig } from 'vitest/config';
import { IN_PROCESS_END_TO_END, SECOND_LINE_ONLY } from './scripts/test-lines.mjs';
import base from './vitest.config.js';

/**
 * `npm test`'s second Node line (scripts/test.mjs, scripts/test-lines.mjs): vitest itself runs on it, so holdfast
 * in the test's own process does too, and everything the files start with `process.execPath`.
 */
export default defineConfig({
  ...base,
  // Replaced, not merged: vitest's mergeConfig would add these to the base's include.
  test: { ...base.test, name: `second line: Node ${process.versions.node.split('.')[0]}`, include: [...IN_PROCESS_END_TO_END, ...SECOND_LINE_ONLY] },
});
