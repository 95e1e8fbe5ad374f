import { realTimers } from '@holdfast/core/contract';
import type { Timers } from '@holdfast/core/contract';

export type { Timers };

export type Raced<T> = { readonly done: true; readonly value: T } | { readonly done: false };

/**
 * The work's result, or `{ done: false }` once `ms` have passed without one. A work that rejects
 * rejects here too. The timer is cleared when the work settles first, so it keeps no process alive.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, timers: Timers = realTimers): Promise<Raced<T>> {
  return new Promise((resolve, reject) => {
    const handle = timers.setTimeout(() => resolve({ done: false }), ms);
    work.then(
      (value) => {
        timers.clearTimeout(handle);
        resolve({ done: true, value });
      },
      (error: unknown) => {
        timers.clearTimeout(handle);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
