import { readFile } from 'node:fs/promises';
import type { Action } from '@holdfast/core/contract';
import { checkActions, defaultRulebookPath, parseRulebook } from '@holdfast/core/rules';
import { compilePattern } from '@holdfast/core/rules';
import type { Pattern } from '@holdfast/core/rules';
import { growthFigure } from './figure.js';
import type { BenchContext } from './index.js';

/**
 * The cost of judging a model reply with the default rulebook (secret scanning included), and the
 * shape of the default content patterns' cost on adversarial single-line input: linear means ~10×
 * for 10× the input.
 */
export async function runBench(_print: (line: string) => void, context: BenchContext): Promise<void> {
  const rulebook = parseRulebook(await readFile(defaultRulebookPath(), 'utf8'), 'rulebooks/default.yaml');
  const actions = realisticReply(100);
  const existing = ['src/lib/http.ts', 'src/features/orders/api.ts'];
  await checkActions(actions, existing, rulebook); // warm-up: compiles the rulebook, loads the scanner
  const withoutSecrets = { ...rulebook, rules: rulebook.rules.filter((rule) => rule.check.kind !== 'secret') };
  await checkActions(actions, existing, withoutSecrets);
  const withR1 = { cpu: [] as number[], wall: [] as number[] };
  const baseline = { cpu: [] as number[], wall: [] as number[] };
  // Batches of ten checks, alternating with and without R1 so both see the same machine. The figure
  // is CPU time: the check is synchronous work, and on a shared two-core box a wall-clock check also
  // counts whatever the scheduler ran instead (the wall-clock median is printed beside it).
  for (let batch = 0; batch < 40; batch++) {
    await timeBatch(() => checkActions(actions, existing, rulebook), withR1);
    await timeBatch(() => checkActions(actions, existing, withoutSecrets), baseline);
  }
  const scanned = actions.reduce((sum, action) => sum + (action.type === 'write' ? action.content.length : 0), 0);
  context.figure({
    name: '100-action reply, default rulebook, CPU time per check (median of 40 batches of 10)',
    value: median(withR1.cpu),
    unit: 'µs',
    better: 'lower',
    detail: `wall-clock median ${median(withR1.wall).toFixed(0)} µs; R1 scans ${(scanned / 1024).toFixed(0)} KiB`,
    baseline: { name: 'the same reply without R1 (no secret scanning)', value: median(baseline.cpu) },
    target: { on: 'value', atMost: 1000 },
  });

  // The same reply with every module naming console.log and fetch in a comment: R4 and R5 then parse
  // all 98 files (once each, shared by the two rules) instead of ruling them out from the text.
  const parsed = realisticReply(100).map((action) =>
    action.type === 'write' ? { ...action, content: `// no console.log, no fetch(), no axios: see ../../lib/http\n${action.content}` } : action,
  );
  await checkActions(parsed, existing, rulebook);
  const everyFile = { cpu: [] as number[], wall: [] as number[] };
  for (let batch = 0; batch < 20; batch++) await timeBatch(() => checkActions(parsed, existing, rulebook), everyFile);
  context.figure({
    name: '100-action reply whose every file must be parsed (comments name console.log and fetch), CPU time per check',
    value: median(everyFile.cpu),
    unit: 'µs',
    better: 'lower',
    detail: `wall-clock median ${median(everyFile.wall).toFixed(0)} µs; R4 and R5 share one syntax tree per file`,
    baseline: { name: 'the plain 100-action reply', value: median(withR1.cpu) },
  });

  for (const [kind, pattern] of contentPatterns(rulebook)) {
    for (const [shape, unit] of [
      ['a', 'a'],
      ['quotes', '"'],
      ['=', '='],
      ['near-miss', 'console fetch axios . ( '],
    ] as const) {
      const small = timeScan(pattern, unit.repeat(Math.ceil(100_000 / unit.length)));
      const large = timeScan(pattern, unit.repeat(Math.ceil(1_000_000 / unit.length)));
      context.figure(growthFigure(`${kind} /${pattern.source}/ on ${shape}, time at 1 MB / at 100 KB`, small, large, 10, 12));
    }
  }
  // Patterns that backtrack exponentially on a backtracking engine: on RE2 they stay linear.
  for (const [source, unit, tail] of [
    ['^(a|aa)*$', 'a', 'b'],
    ['^(a+)+$', 'a', '!'],
    ['(\\w|\\d)+$', 'a', '!'],
  ] as const) {
    const pattern = compiled(source, '');
    const small = timeScan(pattern, `${unit.repeat(100_000)}${tail}`);
    const large = timeScan(pattern, `${unit.repeat(1_000_000)}${tail}`);
    context.figure(growthFigure(`pathological /${source}/ on RE2, time at 1 MB / at 100 KB`, small, large, 10, 12));
  }
}

function compiled(source: string, flags: string): Pattern {
  const result = compilePattern(source, flags);
  if (!result.ok) throw new Error(`bench pattern ${source} does not compile: ${result.reason}`);
  return result.pattern;
}

function contentPatterns(rulebook: ReturnType<typeof parseRulebook>): [string, Pattern][] {
  return rulebook.rules.flatMap((rule): [string, Pattern][] => {
    if (rule.check.kind === 'forbidden-pattern') {
      const flags = rule.check.flags;
      return rule.check.patterns.map((source) => [`${rule.id} ${rule.name}`, compiled(source, flags)]);
    }
    if (rule.check.kind === 'http-helper') return rule.check.patterns.map((source) => [`${rule.id} ${rule.name}`, compiled(source, '')]);
    if (rule.check.kind === 'code') return rule.check.fallback.map((source) => [`${rule.id} ${rule.name}`, compiled(source, '')]);
    return [];
  });
}

/** CPU and wall-clock microseconds per check over a batch of ten. */
async function timeBatch(check: () => Promise<unknown>, into: { cpu: number[]; wall: number[] }): Promise<void> {
  const cpuStart = process.cpuUsage();
  const wallStart = process.hrtime.bigint();
  for (let run = 0; run < 10; run++) await check();
  const spent = process.cpuUsage(cpuStart);
  into.wall.push(Number(process.hrtime.bigint() - wallStart) / 1000 / 10);
  into.cpu.push((spent.user + spent.system) / 10);
}

/**
 * Fastest ms of one scan over 15 samples: on a machine shared with other work, the minimum is the
 * steadiest estimate of the scan's own cost. Each sample repeats the scan so it lasts long enough to time.
 */
function timeScan(pattern: Pattern, input: string): number {
  const repeats = Math.max(1, Math.round(2_000_000 / input.length));
  const samples: number[] = [];
  for (let sample = 0; sample < 15; sample++) {
    const start = process.hrtime.bigint();
    for (let repeat = 0; repeat < repeats; repeat++) pattern.find(input);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6 / repeats);
  }
  return Math.min(...samples);
}

function realisticReply(count: number): Action[] {
  const actions: Action[] = [];
  for (let index = 0; actions.length < count - 2; index++) {
    const module = `src/features/orders/step-${index}.ts`;
    actions.push({
      type: 'write',
      path: module,
      content:
        `import { get } from '../../lib/http';\n\nexport interface Step${index} {\n  id: string;\n  total: number;\n}\n\nexport async function loadStep${index}(id: string): Promise<Step${index}> {\n  const step = (await get(\`/api/steps/\${id}\`)) as Step${index};\n  if (step.total < 0) throw new Error('negative total');\n  return step;\n}\n`.repeat(
          3,
        ),
    });
    actions.push({ type: 'write', path: module.replace('.ts', '.test.ts'), content: `import { it } from 'vitest';\nit('loads step ${index}', () => {});\n` });
  }
  actions.push({ type: 'run', cmd: 'npm test' }, { type: 'commit', message: 'feat: steps' });
  return actions;
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
