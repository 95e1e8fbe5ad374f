import { parseReply } from '@holdfast/core/reply';
import { compilePattern } from '@holdfast/core/rules';

/**
 * Hostile input, by family: each is timed at n and 2n characters and the ratio time(2n)/time(n)
 * printed. Linear work doubles (≈2×); the target is ≤ 3× on a shared machine. Issue 16's 12,000-fence
 * reply, which once took 33 s on the server, is the first family.
 */
const REPLY_FAMILIES: Record<string, (size: number) => string> = {
  'repeated fences, broken JSON': (size) => fill('```json\n{"a": 1,}\n```\n', size),
  'repeated fences, open actions': (size) => fill('```\n{"actions": [\n```\n', size),
  'repeated fences, bare words': (size) => fill('```\nhello\n```\n', size),
  'nested brackets, open': (size) => fill('{"actions": [', size),
  'nested brackets, balanced': (size) => `${'['.repeat(size / 2)}${']'.repeat(size / 2)}`,
  'long line in a cut-off write': (size) => `{"actions": [{"type": "write", "path": "a.ts", "content": "${'x'.repeat(size)}`,
  'long line of commas to repair': (size) => `{"actions": [${'1,'.repeat(size / 2)}`,
  'long prose line with braces': (size) => fill('word { "x" ', size),
  'many repairs (single quotes)': (size) => `[${fill("{'a': 'b'},", size)}`,
};

const PATTERNS: ReadonlyArray<readonly [string, string]> = [
  ['^(a+)+$', 'a'],
  ['^(a|aa)*$', 'a'],
  ['(\\w|\\d)+$', 'a'],
  ['(x+x+)+y', 'x'],
];

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Fastest of `samples` timings of `work`, in ms: on a shared machine the minimum is the steadiest estimate. */
function fastest(work: () => void, samples: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let sample = 0; sample < samples; sample += 1) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

function line(name: string, size: number, small: number, large: number): string {
  const ratio = large / small;
  return `  ${name.padEnd(34)} ${(size / 1000).toFixed(0).padStart(4)} KB ${small.toFixed(1).padStart(8)} ms   ${((2 * size) / 1000).toFixed(0).padStart(4)} KB ${large.toFixed(1).padStart(8)} ms   ratio ${ratio.toFixed(2)}×${ratio > 3 ? '  OVER TARGET' : ''}`;
}

export async function runBench(print: (text: string) => void): Promise<void> {
  const size = 120_000;
  print('hostile replies: parseReply at n and 2n characters (fastest of 5; target ratio ≤ 3×)');
  for (const [name, make] of Object.entries(REPLY_FAMILIES)) {
    const small = make(size);
    const large = make(2 * size);
    print(
      line(
        name,
        size,
        fastest(() => parseReply(small), 5),
        fastest(() => parseReply(large), 5),
      ),
    );
  }
  const issueReply = '```json\n{"a": 1,}\n```\n'.repeat(12_000);
  print(
    `  issue 16's reply: 12,000 fences, ${(issueReply.length / 1000).toFixed(0)} KB: ${fastest(() => parseReply(issueReply), 3).toFixed(1)} ms (was 33–37 s on the server)`,
  );

  print('catastrophic patterns (RE2): pattern.find at n and 2n characters (fastest of 5; target ratio ≤ 3×)');
  for (const [source, unit] of PATTERNS) {
    const compiled = compilePattern(source, '');
    if (!compiled.ok) throw new Error(`bench pattern ${source} does not compile: ${compiled.reason}`);
    const small = `${unit.repeat(size)}!`;
    const large = `${unit.repeat(2 * size)}!`;
    print(
      line(
        `/${source}/`,
        size,
        fastest(() => compiled.pattern.find(small), 5),
        fastest(() => compiled.pattern.find(large), 5),
      ),
    );
  }
  await Promise.resolve();
}
