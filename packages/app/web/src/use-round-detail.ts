import { useEffect, useState } from 'react';
import type { ArmResult, RunEvent } from '@holdfast/core/browser';
import { findRound, reduceRunEvents } from '@holdfast/lab/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { fetchRoundEvents } from './api-client.js';

interface RoundEventsRead {
  told?: ArmResult;
  held?: ArmResult;
  /** The judge grades of the round (advisory), which the summary view leaves out. */
  judged?: RoundState['judged'];
}

/** Full arm results and judge grades of one round, as its own events say (read by the shared reducer). */
function armsOfRoundEvents(events: readonly RunEvent[], roundId?: string): RoundEventsRead {
  const arms: RoundEventsRead = {};
  for (const event of events) if (event.type === 'arm-end') arms[event.result.arm] = event.result;
  if (roundId !== undefined && events.some((event) => event.type === 'judge')) {
    const state = reduceRunEvents(events);
    const judged = state.rounds.at(findRound(state, roundId))?.judged;
    if (judged !== undefined) arms.judged = judged;
  }
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
  const [loaded, setLoaded] = useState<{ key: string; arms?: RoundEventsRead; error?: string } | undefined>(undefined);
  const key = runName === undefined ? undefined : `${runName}\u0000${round.roundId}`;

  useEffect(() => {
    if (runName === undefined || key === undefined) return;
    let disposed = false;
    cachedRoundEvents(runName, round.roundId).then(
      (events) => {
        if (!disposed) setLoaded({ key, arms: armsOfRoundEvents(events, round.roundId) });
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
  const judged = loaded.arms.judged ?? round.judged;
  return {
    status: 'full',
    round: { ...round, ...(told !== undefined ? { told } : {}), ...(held !== undefined ? { held } : {}), ...(judged !== undefined ? { judged } : {}) },
  };
}
