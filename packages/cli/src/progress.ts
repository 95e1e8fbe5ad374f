import type { ArmResult } from '@holdfast/core/contract';

export interface Progress {
  /** `worker`: in a queued run, who played the round; the bar then counts rounds per worker too. */
  roundEnded(label: string, results: { told: ArmResult; held: ArmResult }, worker?: string): void;
  finish(): void;
}

/**
 * A progress bar on a terminal (redrawn in place), plain lines otherwise, so logs stay readable
 * when stderr is a file or a CI console.
 */
export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, total: number, already = 0): Progress {
  let done = already;
  const counts = { violated: 0, blocked: 0, leaks: 0 };
  const byWorker = new Map<string, number>();
  const width = 24;
  const draw = () => {
    const filled = total === 0 ? width : Math.round((done / total) * width);
    stream.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} rounds · told violated ${counts.violated} · held blocked ${counts.blocked}${counts.leaks > 0 ? ` · gate leaks ${counts.leaks}` : ''}${workers()}\u001b[K`,
    );
  };
  const workers = () => (byWorker.size === 0 ? '' : ` · ${[...byWorker.entries()].map(([worker, rounds]) => `${worker} ${rounds}`).join(' ')}`);
  if (stream.isTTY === true) draw();
  return {
    roundEnded(label, results, worker) {
      done += 1;
      if (worker !== undefined) byWorker.set(worker, (byWorker.get(worker) ?? 0) + 1);
      if (results.told.verdict === 'violated') counts.violated += 1;
      // A held session that recovered was blocked too; one that evaded is a gate leak, shown on its own.
      if (results.held.verdict === 'blocked' || results.held.verdict === 'recovered') counts.blocked += 1;
      if (results.held.verdict === 'evaded') counts.leaks += 1;
      if (stream.isTTY === true) draw();
      else
        stream.write(
          `round ${done}/${total} ${label}${worker !== undefined ? ` on ${worker}` : ''}: told ${results.told.verdict}, held ${results.held.verdict}\n`,
        );
    },
    finish() {
      if (stream.isTTY === true) stream.write('\n');
    },
  };
}
