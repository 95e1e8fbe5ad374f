import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXEC_MARKER, findBubblewrap } from './containment.js';
import { containmentChecks } from './containment-doctor.js';

describe('containment in doctor', () => {
  it('says bubblewrap is missing and the session is not contained', () => {
    const checks = containmentChecks({ PATH: mkdtempSync(join(tmpdir(), 'holdfast-nobwrap-')) });
    expect(checks.map((check) => check.what).join('\n')).toMatch(/bubblewrap is not installed[\s\S]*does not run under holdfast exec/);
    expect(checks.every((check) => check.advisory === true)).toBe(true);
  });

  it.runIf(findBubblewrap(process.env) !== undefined)('says when the session runs under holdfast exec', () => {
    const checks = containmentChecks({ ...process.env, [EXEC_MARKER]: '1' });
    expect(checks.map((check) => check.what).join('\n')).toMatch(/bubblewrap is available[\s\S]*runs under holdfast exec/);
  });
});
