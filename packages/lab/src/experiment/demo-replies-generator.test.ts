import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDemoRepliesPath } from './demo-replies.js';
import { demoRepliesText } from './demo-replies-generator.js';

/** The answers the demo replies are made from: the repository's development data, not part of the package. */
const ANSWERS = fileURLToPath(new URL('../../../../fixtures/demo-replies', import.meta.url));

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function copyOfData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-demo-data-'));
  scratch.push(dir);
  cpSync(ANSWERS, dir, { recursive: true });
  return dir;
}

describe('the demo replies generator', () => {
  it('writes runs/demo/replies.json byte for byte from fixtures/demo-replies/', () => {
    expect(demoRepliesText(ANSWERS)).toBe(readFileSync(defaultDemoRepliesPath(), 'utf8'));
  });

  it('takes each written file from its data file: a change there changes the reply that writes it', () => {
    const dir = copyOfData();
    const file = join(dir, 'files', 'skip-flaky-ci', 'skip-in-test.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('ORD-512', 'ORD-999'));
    const text = demoRepliesText(dir);
    expect(text).not.toBe(readFileSync(defaultDemoRepliesPath(), 'utf8'));
    expect(text).toContain('ORD-999');
  });

  it('refuses a plan that names an answer the task does not have, naming the file', () => {
    const dir = copyOfData();
    const planFile = join(dir, 'plan.json');
    writeFileSync(planFile, readFileSync(planFile, 'utf8').replace('"comply"', '"comply-typo"'));
    expect(() => demoRepliesText(dir)).toThrow(/plan\.json: no answer "comply-typo" for skip-flaky-ci/);
  });
});
