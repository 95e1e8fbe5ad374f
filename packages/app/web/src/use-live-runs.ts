import { useEffect, useState } from 'react';
import { LiveRunsResponseSchema, jsonOrUndefined } from '@holdfast/core/browser';
import type { LiveRunSummary } from '@holdfast/core/browser';

const POLL_MS = 2_000;

/**
 * Every run this server started, with its waiting commits. Where the browser has shared workers,
 * one worker holds the only `/api/live/stream` of all tabs (see live-runs-worker.ts); elsewhere
 * (Android Chrome, older Safari) the page asks `/api/live` every 2 s. Each message is a whole
 * snapshot, so nothing is lost across a drop. Every page holds one, so no waiting commit is out of sight.
 */
export function useLiveRuns(): readonly LiveRunSummary[] {
  const [runs, setRuns] = useState<readonly LiveRunSummary[]>([]);
  useEffect(() => {
    let last = '';
    const take = (text: string): void => {
      if (text === last) return;
      last = text;
      const parsed = LiveRunsResponseSchema.safeParse(jsonOrUndefined(text));
      if (parsed.success) setRuns(parsed.data.runs);
    };

    if (typeof SharedWorker !== 'undefined') {
      const worker = new SharedWorker(new URL('./live-runs-worker.ts', import.meta.url), { type: 'module', name: 'holdfast-live-runs' });
      const port = worker.port;
      port.onmessage = (message: MessageEvent<unknown>) => {
        if (typeof message.data === 'string') take(message.data);
      };
      port.start();
      const bye = (): void => port.postMessage('close');
      window.addEventListener('pagehide', bye);
      return () => {
        window.removeEventListener('pagehide', bye);
        bye();
        port.close();
      };
    }

    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = (): void => {
      fetch('/api/live', { headers: { accept: 'application/json' } })
        .then((response) => (response.ok ? response.text() : ''))
        .then(
          (text) => {
            if (text !== '') take(text);
          },
          () => undefined,
        )
        .finally(() => {
          if (!stopped) timer = setTimeout(poll, POLL_MS);
        });
    };
    poll();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return runs;
}
