import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from '../test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import { runDoctor } from './doctor.js';

describe('holdfast doctor on a rulebook with judge rules', () => {
  it('reports each judge rule as advisory only, never as a problem', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-doctor-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    copyFileSync(new URL('../../../../rulebooks/judged.yaml', import.meta.url), join(root, 'judged.yaml'));
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '' } });
    const code = await main(['install', 'claude-code', '--rulebook', 'judged.yaml'], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);

    const rulebook = (await runDoctor({ root, env: {}, codex: undefined })).filter((check) => check.area === 'rulebook');
    expect(rulebook.every((check) => check.ok)).toBe(true);
    expect(rulebook.filter((check) => check.advisory === true).map((check) => check.what)).toEqual(
      ['J1 NO_WEAKENED_TEST', 'J2 TICKET_SCOPE', 'J3 NO_STUB_DONE', 'J4 NOLOG_JUDGED'].map(
        (rule) => `${rule} (judge) is advisory only: a judge model grades it after a run, the live gate never blocks on it`,
      ),
    );
  });
});
