import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { readSuiteFile } from './fixture-files.js';

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function suiteSaying(rulebook: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-suite-'));
  scratch.push(dir);
  writeFileSync(join(dir, 'suite.json'), JSON.stringify({ rulebook }));
  return dir;
}

describe('the rulebook a suite.json names', () => {
  it('"shipped" is the rulebook holdfast ships, wherever the suite is copied', async () => {
    expect((await readSuiteFile(suiteSaying('shipped'))).rulebook).toBe(defaultRulebookPath());
  });

  it('anything else is a path from the suite’s folder', async () => {
    const dir = suiteSaying('../team/rulebook.yaml');
    expect((await readSuiteFile(dir)).rulebook).toBe(join(dir, '..', 'team', 'rulebook.yaml'));
  });
});
