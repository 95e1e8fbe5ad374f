import { parseReply } from '@holdfast/core/reply';
import { ADVERSARIAL } from '@holdfast/core/test-support';
import { growthFigure } from './figure.js';
import { measureGrowthApart } from './growth-process.js';
import type { GrowthCase } from './growth-process.js';
import type { BenchContext } from './index.js';

/** A reply of about `size` characters: a module, its test, a test run and a commit. */
function typicalReply(size: number): { reasoning: string; actions: unknown[] } {
  const line = 'export function add(a: number, b: number): number { return a + b; } // "quoted" {braces} [x]\n';
  const content = line.repeat(Math.ceil(size / line.length)).slice(0, size);
  return {
    reasoning: 'Add the module and its test, run the tests, then commit.',
    actions: [
      { type: 'write', path: 'src/add.ts', content },
      { type: 'write', path: 'src/add.test.ts', content: "import { add } from './add.js';\n" },
      { type: 'run', cmd: 'npm test' },
      { type: 'commit', message: 'feat: add' },
    ],
  };
}

function shapes(size: number): Record<string, string> {
  const reply = typicalReply(size);
  const json = JSON.stringify(reply, null, 2);
  return {
    json,
    fenced: `Here is the change.\n\`\`\`json\n${json}\n\`\`\`\n`,
    object: `I will add the module.\n${JSON.stringify(reply)}\nLet me know if you need more.`,
    salvaged: JSON.stringify(reply).replace('"Add the module', '"Add "the" module'),
    repaired: json.replace(/\}\n(\s*)\]/, '},\n$1]'),
  };
}

/** Each adversarial shape parsed at 100 KB and at 1 MB (made in the process that measures them). */
export function adversarialGrowthCases(): GrowthCase[] {
  return Object.entries(ADVERSARIAL).map(([name, make]) => {
    const small = make(100_000);
    const large = make(1_000_000);
    return { name: `adversarial ${name}, time at 1 MB / at 100 KB`, small: () => parseReply(small), large: () => parseReply(large), ratio: 10 };
  });
}

/** Median milliseconds of `runs` calls. */
function time(text: string, runs: number): number {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    parseReply(text);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  print('reply parsing: typical 10 KB reply, by method (median of 50)');
  for (const [method, text] of Object.entries(shapes(10_000))) {
    const parsed = parseReply(text);
    const got = parsed.kind === 'actions' ? parsed.method : parsed.kind;
    time(text, 10);
    print(`  ${method.padEnd(9)} ${time(text, 50).toFixed(3).padStart(8)} ms  (read as ${got}, ${text.length} chars)`);
  }
  print(
    'reply parsing: adversarial input, 1 MB vs 100 KB of the same shape (CPU time, fastest of 15, sizes alternated, in a process with one GC thread; target ratio ≤ 12×)',
  );
  for (const { name, smallMs, largeMs } of await measureGrowthApart(import.meta.url, 'adversarialGrowthCases')) {
    context.figure(growthFigure(name, smallMs, largeMs, 10, 12));
  }
}
