import { readFileSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** How a peak was read: the kernel's high-water mark since the last reset, or samples of RSS. */
export type PeakSource = 'VmHWM' | 'sampled';

/**
 * The peak RSS of this process over a stretch of work. `process.resourceUsage().maxRSS` cannot be
 * used for it: Linux keeps `ru_maxrss` across fork and exec, so a measuring process spawned by a
 * bench that already holds 400 MB reports 400 MB whatever it does (the 341 MB the 50 MB-reply figure
 * once showed was the parent's). The kernel's high-water mark of this process's own memory (VmHWM),
 * reset when the stretch starts (`/proc/self/clear_refs`), is the process's own; where /proc is
 * missing, RSS is sampled every millisecond the event loop is free, and at the end.
 */
export class PeakRss {
  private sampled = 0;
  private timer: NodeJS.Timeout | undefined;
  readonly source: PeakSource;

  private constructor(source: PeakSource) {
    this.source = source;
    if (source === 'sampled') {
      this.sample();
      this.timer = setInterval(() => this.sample(), 1).unref();
    }
  }

  /** Starts a stretch now: the peak read later covers only what happens from here on. */
  static start(): PeakRss {
    try {
      writeFileSync('/proc/self/clear_refs', '5');
      if (highWaterMb() !== undefined) return new PeakRss('VmHWM');
    } catch {
      // No /proc, or not writable: sample instead.
    }
    return new PeakRss('sampled');
  }

  /** The highest RSS since `start`, in MB, and stops sampling. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.source === 'VmHWM' ? (highWaterMb() ?? this.sampled) : this.sampled;
  }

  private sample(): void {
    this.sampled = Math.max(this.sampled, process.memoryUsage.rss() / MB);
  }
}

function highWaterMb(): number | undefined {
  const status = readFileSync('/proc/self/status', 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return match === null ? undefined : Number(match[1]) / 1024;
}
