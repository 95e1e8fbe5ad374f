import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withinDeadline } from './deadline.js';
import type { Timers } from './deadline.js';
import { runHookProcess } from '../entry/hook-process.js';

/** An injected clock: timers fire only when the test says the time has come. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      pending.set(++next, { callback, ms });
      return next;
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  const fire = () => {
    for (const [handle, { callback }] of pending) {
      pending.delete(handle);
      callback();
    }
  };
  return { timers, fire, pending };
}

describe('withinDeadline', () => {
  it('gives the work its result when it settles first, and clears its timer', async () => {
    const clock = manualTimers();
    await expect(withinDeadline(Promise.resolve(7), 100, clock.timers)).resolves.toEqual({ done: true, value: 7 });
    expect(clock.pending.size).toBe(0);
  });

  it('says not done when the deadline passes first', async () => {
    const clock = manualTimers();
    const raced = withinDeadline(new Promise<number>(() => undefined), 100, clock.timers);
    expect([...clock.pending.values()].map((timer) => timer.ms)).toEqual([100]);
    clock.fire();
    await expect(raced).resolves.toEqual({ done: false });
  });

  it('passes a rejection on', async () => {
    await expect(withinDeadline(Promise.reject(new Error('boom')), 100, manualTimers().timers)).rejects.toThrow('boom');
  });
});

describe('runHookProcess', () => {
  it('refuses (exit 2) a decision still running at its deadline, and says so without naming any off switch', async () => {
    const clock = manualTimers();
    const stdin = new PassThrough(); // never ended: the decision waits for its event forever
    const answer = runHookProcess(['codex', '--deadline-ms', '24000'], { stdin, cwd: process.cwd(), env: {} }, clock.timers);
    await new Promise((resolve) => setImmediate(resolve));
    expect([...clock.pending.values()].map((timer) => timer.ms)).toEqual([24000]);
    clock.fire();
    const result = await answer;
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/did not finish within its deadline of 24000 ms/);
    expect(result.stderr).not.toMatch(/HOLDFAST_GATE|bypass|switch off/i);
  });

  it('refuses a malformed deadline instead of running without one', async () => {
    const result = await runHookProcess(
      ['claude-code', '--deadline-ms', 'soon'],
      { stdin: new PassThrough(), cwd: process.cwd(), env: {} },
      manualTimers().timers,
    );
    expect(result).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/--deadline-ms needs a whole number/) });
  });

  it('answers as the hook decided when it decides in time', async () => {
    const clock = manualTimers();
    const stdin = new PassThrough();
    stdin.end('not an event');
    const result = await runHookProcess(['codex', '--deadline-ms', '24000'], { stdin, cwd: process.cwd(), env: {} }, clock.timers);
    // Garbage in is a refusal by the hook itself (its reason on stderr), not a deadline refusal.
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toMatch(/deadline/);
    expect(clock.pending.size).toBe(0);
  });
});
