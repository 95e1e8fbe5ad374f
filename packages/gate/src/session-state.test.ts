import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessionState, MAX_SESSION_RUNS, saveSessionState, sessionStatePath, withRun } from './session-state.js';

function root(): string {
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-state-'));
  mkdirSync(join(folder, '.holdfast', 'sessions'), { recursive: true });
  return folder;
}

describe('session state', () => {
  it('keeps each command once, at its latest run, and at most MAX_SESSION_RUNS of them', () => {
    expect(withRun([{ cmd: 'npm test', failed: 'exit code 1' }, { cmd: 'ls' }], 'npm test')).toEqual([{ cmd: 'ls' }, { cmd: 'npm test' }]);
    let runs = withRun([], 'npm test');
    for (let index = 0; index < MAX_SESSION_RUNS; index += 1) runs = withRun(runs, `ls ${index}`);
    expect(runs).toHaveLength(MAX_SESSION_RUNS);
    expect(runs.some((run) => run.cmd === 'npm test')).toBe(false);
  });

  it('round-trips, and reads a state an earlier holdfast wrote (only its last test run)', () => {
    const folder = root();
    saveSessionState(folder, 's', { version: 1, created: ['src/a.ts'], runs: [{ cmd: 'npm test', failed: 'exit code 2' }] });
    expect(loadSessionState(folder, 's')).toEqual({
      state: { version: 1, created: ['src/a.ts'], changed: undefined, changedBeforeCommit: undefined, runs: [{ cmd: 'npm test', failed: 'exit code 2' }] },
      warning: undefined,
    });
    const earlier = (fields: object) => writeFileSync(sessionStatePath(folder, 'old'), JSON.stringify({ version: 1, created: [], ...fields }));
    earlier({ testedSinceLastWrite: true, lastTestCommand: 'npm test' });
    expect(loadSessionState(folder, 'old').state.runs).toEqual([{ cmd: 'npm test' }]);
    earlier({ testedSinceLastWrite: true, lastTestCommand: 'npm test', lastTestPassed: false });
    expect(loadSessionState(folder, 'old').state.runs).toEqual([{ cmd: 'npm test', failed: 'it failed' }]);
    earlier({ testedSinceLastWrite: false, lastTestCommand: 'npm test' });
    expect(loadSessionState(folder, 'old').state.runs).toEqual([]);
  });

  it('reads a state with runs that are not what they should be as corrupt (tests count as not run)', () => {
    const folder = root();
    writeFileSync(sessionStatePath(folder, 'bad'), JSON.stringify({ version: 1, created: [], runs: [{ cmd: 7 }] }));
    const loaded = loadSessionState(folder, 'bad');
    expect(loaded.state.runs).toEqual([]);
    expect(loaded.warning).toMatch(/corrupt/);
  });
});
