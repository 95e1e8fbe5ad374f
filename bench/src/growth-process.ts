import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HoldfastError } from '@holdfast/core/contract';
import { growth } from './cpu-growth.js';
import type { Growth } from './cpu-growth.js';

/** One piece of work at two sizes, the large input `ratio` times the small one. */
export interface GrowthCase {
  readonly name: string;
  readonly small: () => unknown;
  readonly large: () => unknown;
  readonly ratio: number;
}

/** Makes a bench's growth cases; exported by the bench module, called in the measuring process. */
export type GrowthCases = () => readonly GrowthCase[] | Promise<readonly GrowthCase[]>;

/** The measuring process failed or answered something other than its growth figures. */
export class GrowthProcessError extends HoldfastError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_BENCH_GROWTH_PROCESS', message, options);
  }
}

/** What the measuring process answers for one case. */
export interface MeasuredGrowth extends Growth {
  readonly name: string;
  readonly ratio: number;
}

/** V8 flags of the measuring process: the collector's marking, sweeping and scavenging on the main thread. */
export const GROWTH_PROCESS_FLAGS = ['--single-threaded-gc'] as const;

/**
 * The growth (`growth` in cpu-growth.ts) of every case that `module`'s export `exportName` makes,
 * measured in a node process of its own whose collector has one thread. With V8's helper threads,
 * concurrent marking started by one sample's garbage is charged to whichever sample runs next, and
 * a reply of a megabyte of `[` read 7.6× to 14× from run to run in CPU time; on one thread every
 * collection runs inside the sample that made the garbage.
 * The cases are made in that process because functions cannot be sent to it.
 */
export async function measureGrowthApart(module: string | URL, exportName: string): Promise<readonly MeasuredGrowth[]> {
  const args = [...GROWTH_PROCESS_FLAGS, fileURLToPath(import.meta.url), String(module), exportName];
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 }));
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new GrowthProcessError(`measuring the growth cases of ${String(module)} (${exportName}) failed: ${(error as Error).message}\n${stderr}`, {
      cause: error,
    });
  }
  return readFigures(stdout, `${String(module)} (${exportName})`);
}

function readFigures(stdout: string, source: string): readonly MeasuredGrowth[] {
  let answer: unknown;
  try {
    answer = JSON.parse(stdout);
  } catch (error) {
    throw new GrowthProcessError(`the growth process for ${source} printed something other than JSON: ${stdout.slice(0, 200)}`, { cause: error });
  }
  if (!Array.isArray(answer)) throw new GrowthProcessError(`the growth process for ${source} answered ${stdout.slice(0, 200)}, not a list`);
  return answer.map((item: unknown) => {
    const { name, ratio, smallMs, largeMs } = (item ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof ratio !== 'number' || typeof smallMs !== 'number' || typeof largeMs !== 'number') {
      throw new GrowthProcessError(`the growth process for ${source} answered ${JSON.stringify(item)}, not { name, ratio, smallMs, largeMs }`);
    }
    return { name, ratio, smallMs, largeMs };
  });
}

async function main(module: string | undefined, exportName: string | undefined): Promise<void> {
  if (module === undefined || exportName === undefined) throw new GrowthProcessError('usage: growth-process.js MODULE-URL EXPORT-NAME');
  const exported = ((await import(module)) as Record<string, unknown>)[exportName];
  if (typeof exported !== 'function') throw new GrowthProcessError(`${module} exports no function ${exportName} that makes growth cases`);
  const figures: MeasuredGrowth[] = [];
  for (const { name, small, large, ratio } of await (exported as GrowthCases)()) {
    figures.push({ name, ratio, ...(await growth(small, large, { ratio })) });
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

// Not awaited at the top level: the bench module imported by `main` imports this one, and would
// wait for it to finish evaluating while it waits for that import.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv[2], process.argv[3]).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
