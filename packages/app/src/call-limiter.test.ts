import { describe, expect, it } from 'vitest';
import { CallLimiter } from './call-limiter.js';

function deferred(): { promise: Promise<string>; resolve: (value: string) => void } {
  let resolve: (value: string) => void = () => {};
  const promise = new Promise<string>((done) => (resolve = done));
  return { promise, resolve };
}

describe('CallLimiter', () => {
  it('lets at most max calls run at once; the rest start in order as slots free', async () => {
    const limiter = new CallLimiter(2);
    const calls = Array.from({ length: 5 }, () => deferred());
    const started: number[] = [];
    const results = calls.map((call, index) =>
      limiter.run(() => {
        started.push(index);
        return call.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([limiter.inFlight, limiter.waiting]).toEqual([2, 3]);
    calls[1]?.resolve('b');
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    expect([limiter.inFlight, limiter.waiting]).toEqual([2, 2]);
    for (const call of calls) call.resolve('x');
    await Promise.all(results);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect([limiter.inFlight, limiter.waiting]).toEqual([0, 0]);
  });

  it('frees the slot of a call that fails', async () => {
    const limiter = new CallLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect(await limiter.run(() => Promise.resolve('next'))).toBe('next');
    expect(limiter.inFlight).toBe(0);
  });
});
