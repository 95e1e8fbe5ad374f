import { useEffect, useState } from 'react';
import type { ArmResult, RunEvent } from '../../src/contract/index.js';
import type { RoundState } from '../../src/store/browser.js';
import { fetchRoundEvents } from './api-client.js';

/** Full arm results of one round, as its own events say (the last arm-end of each arm wins, as in the reducer). */
export function armsOfRoundEvents(events: readonly RunEvent[]): { told?: ArmResult; held?: ArmResult } {
  const arms: { told?: ArmResult; held?: ArmResult } = {};
  for (const event of events) if (event.type === 'arm-end') arms[event.result.arm] = event.result;
  return arms;
}

const CACHE_SIZE = 64;
/** Round events by run and round; a saved run does not change while it is open. Oldest dropped first. */
const cache = new Map<string, Promise<RunEvent[]>>();

function cachedRoundEvents(runName: string, roundId: string): Promise<RunEvent[]> {
  const key = `${runName}\u0000${roundId}`;
  const found = cache.get(key);
  if (found !== undefined) return found;
  const request = fetchRoundEvents(runName, roundId);
  cache.set(key, request);
  if (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  // A failure is not kept: opening the round again asks again.
  request.catch(() => {
    if (cache.get(key) === request) cache.delete(key);
  });
  return request;
}

export type RoundDetail =
  | { readonly status: 'full'; readonly round: RoundState }
  | { readonly status: 'loading'; readonly round: RoundState }
  | { readonly status: 'failed'; readonly round: RoundState; readonly error: string };

/**
 * The round to show. Without `runName` the round is already whole (a live run, or a full load);
 * with it the round came from the lean view, so its full events are fetched (once per round) and
 * their arm results replace the lean ones. Until then the lean round is shown, marked loading.
 */
export function useRoundDetail(runName: string | undefined, round: RoundState): RoundDetail {
  const [loaded, setLoaded] = useState<{ key: string; arms?: { told?: ArmResult; held?: ArmResult }; error?: string } | undefined>(undefined);
  const key = runName === undefined ? undefined : `${runName}\u0000${round.roundId}`;

  useEffect(() => {
    if (runName === undefined || key === undefined) return;
    let disposed = false;
    cachedRoundEvents(runName, round.roundId).then(
      (events) => {
        if (!disposed) setLoaded({ key, arms: armsOfRoundEvents(events) });
      },
      (error: unknown) => {
        if (!disposed) setLoaded({ key, error: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      disposed = true;
    };
  }, [runName, round.roundId, key]);

  if (key === undefined) return { status: 'full', round };
  if (loaded === undefined || loaded.key !== key) return { status: 'loading', round };
  if (loaded.arms === undefined) return { status: 'failed', round, error: loaded.error ?? 'unknown error' };
  const told = loaded.arms.told ?? round.told;
  const held = loaded.arms.held ?? round.held;
  return { status: 'full', round: { ...round, ...(told !== undefined ? { told } : {}), ...(held !== undefined ? { held } : {}) } };
}
