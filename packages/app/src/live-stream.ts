import type { Response } from 'express';
import type { LiveRunsResponse } from '@holdfast/core/contract';
import type { LiveRunBoard } from './live-run-board.js';
import { openStream } from './run-stream.js';
import { formatSseComment, formatSseMessage } from './sse-message.js';

function liveMessage(snapshot: LiveRunsResponse): string {
  return formatSseMessage({ event: 'live', data: JSON.stringify(snapshot) });
}

/**
 * GET /api/live/stream: `event: live` with every run of this process and its waiting commits, at
 * once and after each change, plus `: heartbeat` comments. It never ends on its own; no approval
 * token travels here (each run's own stream carries that).
 */
export function streamLiveRuns(response: Response, board: LiveRunBoard, heartbeatMs: number): void {
  openStream(response);
  response.write(liveMessage(board.snapshot()));
  const stop = board.watch((snapshot) => response.write(liveMessage(snapshot)));
  const heartbeat = setInterval(() => response.write(formatSseComment('heartbeat')), heartbeatMs);
  response.on('close', () => {
    clearInterval(heartbeat);
    stop();
  });
}
