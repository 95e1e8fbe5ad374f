import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  latestSessionState,
  loadSessionState,
  MAX_SESSION_RUNS,
  peekSessionState,
  saveSessionState,
  sessionMirrorFolder,
  sessionStatePath,
  withRun,
} from './session-state.js';
import { saveGuardedBaseline } from './guarded-baseline.js';
import { saveRefBaseline } from './ref-baseline.js';

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
  });

  it('takes a record without a valid seal as no evidence: forged, from an earlier holdfast, or sealed for another session', () => {
    const folder = root();
    writeFileSync(sessionStatePath(folder, 'old'), JSON.stringify({ version: 1, created: [], runs: [{ cmd: 'npm test' }] }));
    const forged = loadSessionState(folder, 'old');
    expect(forged.state.runs).toEqual([]);
    expect(forged.warning).toMatch(/not one the gate wrote/);
    saveSessionState(folder, 'other', { version: 1, created: [], runs: [{ cmd: 'npm test' }] });
    rmSync(join(sessionMirrorFolder(folder), 'old.json'), { force: true });
    writeFileSync(sessionStatePath(folder, 'old'), readFileSync(sessionStatePath(folder, 'other')));
    expect(loadSessionState(folder, 'old').state.runs).toEqual([]);
  });

  it('peeks at the mirror’s state without putting the project’s copy back (the check after a call still finds the change)', () => {
    const folder = root();
    saveSessionState(folder, 's', { version: 1, created: ['src/new.ts'], runs: [] });
    const forged = `${JSON.stringify({ version: 1, created: [], runs: [{ cmd: 'npm test' }] })}\n`;
    writeFileSync(sessionStatePath(folder, 's'), forged);
    expect(peekSessionState(folder, 's').created).toEqual(['src/new.ts']);
    expect(readFileSync(sessionStatePath(folder, 's'), 'utf8')).toBe(forged);
    expect(loadSessionState(folder, 's').warning).toMatch(/put back/);
  });

  it('puts back a record a command deleted or replayed from the mirror outside the project', () => {
    const folder = root();
    saveSessionState(folder, 's', { version: 1, created: [], runs: [{ cmd: 'npm test' }] });
    const tested = readFileSync(sessionStatePath(folder, 's'), 'utf8');
    saveSessionState(folder, 's', { version: 1, created: ['src/new.ts'], runs: [] });
    const current = readFileSync(sessionStatePath(folder, 's'), 'utf8');
    writeFileSync(sessionStatePath(folder, 's'), tested);
    const replayed = loadSessionState(folder, 's');
    expect(replayed.state.runs).toEqual([]);
    expect(replayed.state.created).toEqual(['src/new.ts']);
    expect(replayed.warning).toMatch(/changed outside the gate and is put back/);
    expect(readFileSync(sessionStatePath(folder, 's'), 'utf8')).toBe(current);
    rmSync(sessionStatePath(folder, 's'));
    expect(loadSessionState(folder, 's').warning).toMatch(/deleted outside the gate/);
    expect(readFileSync(sessionStatePath(folder, 's'), 'utf8')).toBe(current);
    expect(latestSessionState(folder)?.state.created).toEqual(['src/new.ts']);
    rmSync(join(sessionMirrorFolder(folder), 's.json'));
    writeFileSync(sessionStatePath(folder, 's'), `${'0'.repeat(64)}\n${JSON.stringify({ version: 1, created: [], runs: [{ cmd: 'npm test' }] })}\n`);
    expect(latestSessionState(folder)?.state.runs).toEqual([]);
  });

  it('never takes the guarded or the ref baseline, written after the session (holdfast install again, a git hook), for the latest session', () => {
    const folder = root();
    saveSessionState(folder, 'agent-session', { version: 1, created: [], runs: [{ cmd: 'npm test' }] });
    saveGuardedBaseline(folder, {});
    saveRefBaseline(
      { top: folder, gitDir: join(folder, '.git'), commonDir: join(folder, '.git') },
      { headRef: null, headCommit: null, refs: {}, replaced: {} },
    );
    for (const name of ['guarded-baseline.json', 'ref-baseline.json']) {
      const baseline = join(sessionMirrorFolder(folder), name);
      utimesSync(baseline, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    }
    expect(latestSessionState(folder)).toMatchObject({ session: 'agent-session', state: { runs: [{ cmd: 'npm test' }] }, warning: undefined });
  });

  it('reads a state with runs that are not what they should be as corrupt (tests count as not run)', () => {
    const folder = root();
    writeFileSync(sessionStatePath(folder, 'bad'), JSON.stringify({ version: 1, created: [], runs: [{ cmd: 7 }] }));
    const loaded = loadSessionState(folder, 'bad');
    expect(loaded.state.runs).toEqual([]);
    expect(loaded.warning).toMatch(/not one the gate wrote/);
  });
});
