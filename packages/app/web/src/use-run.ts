import { useEffect, useEffectEvent, useState } from 'react';
import { RunEventSchema, SessionMessageSchema, jsonOrUndefined } from '@holdfast/core/browser';
import type { RunEvent } from '@holdfast/core/browser';
import { initialRunState, reduceRunEvents } from '@holdfast/lab/browser';
import type { RunState } from '@holdfast/lab/browser';
import { fetchSavedRun } from './api-client.js';
import type { RunSource } from './run-source.js';

export type Connection = 'loading' | 'open' | 'reconnecting' | 'closed' | 'failed';

export interface RunView {
  readonly state: RunState;
  readonly connection: Connection;
  /** The approval token; only the run's own live stream carries it. */
  readonly token?: string;
  readonly problems: readonly string[];
  readonly error?: string;
  /**
   * The events are the lean view of a saved run: arm results lack the raw reply, reasoning and
   * written contents, which `fetchRoundEvents` fetches per round.
   */
  readonly lean?: boolean;
  /**
   * The events are the summary view: arm results carry only verdict, reason, parse, error and mode,
   * so the totals are the server's (`state.totals`, its last totals event), not computed here.
   */
  readonly summary?: boolean;
}

const EMPTY: RunView = { state: initialRunState(), connection: 'loading', problems: [] };

/**
 * Events of one run, applied by the reducer the CLI uses. A saved run is one fetch; a live run is
 * one EventSource, which resumes with Last-Event-ID on its own after a drop (the reducer skips any
 * event it already applied). Events are applied in batches so a burst costs one render, not one each.
 */
export function useRun(source: RunSource | undefined, onEnd?: () => void): RunView {
  const [view, setView] = useState<RunView>(EMPTY);
  const savedName = source?.kind === 'file' ? source.name : undefined;
  const liveRunId = source?.kind === 'live' ? source.runId : undefined;
  // Another run chosen: the last one's view goes at once, in this render.
  const [shownFor, setShownFor] = useState([savedName, liveRunId]);
  if (shownFor[0] !== savedName || shownFor[1] !== liveRunId) {
    setShownFor([savedName, liveRunId]);
    setView({ ...EMPTY, state: initialRunState() });
  }
  // onEnd is a notification, not an input: a new callback must not reopen the stream.
  const notifyEnd = useEffectEvent(() => onEnd?.());

  useEffect(() => {
    let disposed = false;

    if (savedName !== undefined) {
      // The strip and list need only verdicts: a round's bulk comes when it is opened.
      // The summary: verdicts only, and the totals the server computed from every round.
      fetchSavedRun(savedName, 'summary').then(
        (saved) => {
          if (disposed) return;
          performance.mark('holdfast:reduce-start');
          const state = reduceRunEvents(saved.events);
          performance.measure('holdfast:reduce', 'holdfast:reduce-start');
          setView({ state, connection: 'closed', problems: saved.problems, lean: true, summary: true });
        },
        (error: unknown) => {
          if (disposed) return;
          setView({ ...EMPTY, connection: 'failed', error: error instanceof Error ? error.message : String(error) });
        },
      );
      return () => {
        disposed = true;
      };
    }
    if (liveRunId === undefined) return;

    const stream = new EventSource(`/api/run/${encodeURIComponent(liveRunId)}/stream`);
    let queue: RunEvent[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    const flush = (): void => {
      flushTimer = undefined;
      const batch = queue;
      queue = [];
      setView((current) => ({ ...current, state: reduceRunEvents(batch, current.state), connection: ended ? 'closed' : current.connection }));
      if (ended) notifyEnd();
    };
    const schedule = (): void => {
      flushTimer ??= setTimeout(flush, 30);
    };

    stream.addEventListener('open', () => setView((current) => ({ ...current, connection: ended ? 'closed' : 'open' })));
    stream.addEventListener('error', () => {
      if (ended || disposed) return;
      const state = stream.readyState === EventSource.CLOSED ? 'failed' : 'reconnecting';
      setView((current) => ({ ...current, connection: state, ...(state === 'failed' ? { error: 'the run stream closed' } : {}) }));
    });
    stream.addEventListener('session', (message: MessageEvent<string>) => {
      const parsed = SessionMessageSchema.safeParse(jsonOrUndefined(message.data));
      // A saved run's stream sends an empty token: nothing of it can be approved.
      if (parsed.success && parsed.data.token !== '') setView((current) => ({ ...current, token: parsed.data.token }));
    });
    stream.addEventListener('run', (message: MessageEvent<string>) => {
      const parsed = RunEventSchema.safeParse(jsonOrUndefined(message.data));
      if (!parsed.success) {
        setView((current) => ({ ...current, problems: [...current.problems, `event ${message.lastEventId}: not a run event`] }));
        return;
      }
      queue.push(parsed.data);
      // The run is over: stop the stream so the browser does not reconnect to a finished run.
      if (parsed.data.type === 'run-end') {
        ended = true;
        stream.close();
      }
      schedule();
    });

    return () => {
      disposed = true;
      stream.close();
      if (flushTimer !== undefined) clearTimeout(flushTimer);
    };
  }, [savedName, liveRunId]);

  return view;
}
