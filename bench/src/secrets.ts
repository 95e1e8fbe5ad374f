import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { scanSecrets } from '@holdfast/core/rules';
import type { SecretScanOptions } from '@holdfast/core/rules';
import { seededRandom } from '@holdfast/core/rules';
import { labelledCorpus } from '@holdfast/core/test-support';
import { independentCorpus } from './secret-corpus-independent.js';
import type { IndependentSample } from './secret-corpus-independent.js';
import { cpuMsPerRun } from './cpu-growth.js';
import { GrowthProcessError, measureGrowthApart } from './growth-process.js';
import type { GrowthCase } from './growth-process.js';
import type { BenchContext } from './index.js';

/*
 * Secret scanning throughput: secretlint's own in-process scan (the baseline, the peer) against R1's
 * whole scan (anchored secretlint + the generic detector, the default rulebook's options), runs
 * alternating, over two 10 MiB corpora: mixed source where few files hold a candidate, and a
 * candidate-heavy one where every file does (where skipping secretlint cannot help); then the
 * generic detector's time on hostile single-line inputs at 100 KB and 1 MB (linear ≈ 10×).
 */

const MIB = 1024 * 1024;
const CORPUS_BYTES = 10 * MIB;
const OPTIONS: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };

const random = seededRandom(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chars = (alphabet: string, length: number): string => Array.from({ length }, () => pick([...alphabet])).join('');
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const IDENTIFIERS = ['user', 'order', 'invoice', 'session', 'item', 'account', 'payment', 'cart', 'profile', 'report'];

// Split prefixes keep the repository free of literals that scanners flag.
const sprinkled = [
  () => `const token = "${'gh' + 'p_' + chars(ALPHANUMERIC, 36)}";`,
  () => `const apiKey = '${chars(ALPHANUMERIC, 32)}';`,
  () => `const databaseUrl = "postgres://app:${chars(ALPHANUMERIC, 14)}@db.internal:5432/app";`,
  () => `const awsKeyId = "${'AK' + 'IA' + chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}";`,
];

/** How often a block of generated source holds a candidate: rarely (mixed) or nearly always. */
interface Density {
  readonly typescript: number;
  readonly yaml: number;
  readonly json: boolean;
}

const MIXED: Density = { typescript: 0.01, yaml: 0.02, json: false };
const CANDIDATE_HEAVY: Density = { typescript: 0.25, yaml: 0.3, json: true };

function typescriptFile(density: Density): string {
  const name = pick(IDENTIFIERS);
  const lines = [`import { z } from 'zod';`, `import type { Request, Response } from 'express';`, ''];
  for (let block = 0; block < 40; block++) {
    const field = pick(IDENTIFIERS);
    lines.push(
      `/** Loads the ${field} for a ${name}; the caller owns the retry policy. */`,
      `export async function load${field[0]?.toUpperCase()}${field.slice(1)}${block}(request: Request, response: Response): Promise<void> {`,
      `  const ${field}Id = request.params.${field}Id ?? '';`,
      `  const password = request.body.password as string;`,
      `  const result = await fetchJson(\`/api/${field}s/\${${field}Id}\`, { headers: { Authorization: \`Bearer \${session.token}\` } });`,
      `  if (!result.ok) return void response.status(404).json({ error: '${field} not found', key: '${field}-${block}' });`,
      `  response.json({ ${field}: result.value, total: ${Math.floor(random() * 1000)} });`,
      `}`,
      '',
    );
    if (random() < density.typescript) lines.push(pick(sprinkled)());
  }
  return lines.join('\n');
}

function jsonFile(density: Density): string {
  const entries = Array.from({ length: 60 }, (_, index) => ({
    ...(density.json && index % 6 === 0 ? { apiToken: chars(ALPHANUMERIC, 40) } : {}),
    id: `${pick(IDENTIFIERS)}-${index}`,
    name: `${pick(IDENTIFIERS)} ${index}`,
    integrity: `sha512-${chars(ALPHANUMERIC, 86)}==`,
    resolved: `https://registry.npmjs.org/${pick(IDENTIFIERS)}/-/${pick(IDENTIFIERS)}-1.${index}.0.tgz`,
    tokenCount: index * 3,
  }));
  return JSON.stringify({ name: 'fixture', version: '1.0.0', entries }, null, 2);
}

function yamlFile(density: Density): string {
  const lines = ['version: "3.9"', 'services:'];
  for (let index = 0; index < 50; index++) {
    const service = `${pick(IDENTIFIERS)}-${index}`;
    lines.push(
      `  ${service}:`,
      `    image: registry.example.org/${service}:1.${index}`,
      `    environment:`,
      `      DATABASE_URL: \${DATABASE_URL}`,
      `      API_TOKEN: \${API_TOKEN}`,
      `      LOG_LEVEL: info`,
      `    ports: ["${3000 + index}:3000"]`,
    );
    if (random() < density.yaml) lines.push(`      SERVICE_PASSWORD: ${chars(ALPHANUMERIC, 18)}`);
  }
  return lines.join('\n');
}

function corpus(density: Density): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  let bytes = 0;
  for (let index = 0; bytes < CORPUS_BYTES; index++) {
    const kind = index % 3;
    const file =
      kind === 0
        ? { path: `src/features/f${index}.ts`, content: typescriptFile(density) }
        : kind === 1
          ? { path: `data/d${index}.json`, content: jsonFile(density) }
          : { path: `deploy/s${index}.yaml`, content: yamlFile(density) };
    files.push(file);
    bytes += file.content.length;
  }
  return files;
}

/**
 * The text as a hook payload or a reply delivers it: parsed from JSON, one flat string. `repeat`
 * builds a rope, which V8 reads more slowly per character at a megabyte than at 100 KB in some
 * runs and not in others (the optimised code decides), which no scanner's input here looks like.
 */
function asParsed(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Recall (keys caught) and precision (findings that are keys) of one detector over the labelled corpus. */
async function score(
  flags: (path: string, content: string) => Promise<boolean>,
): Promise<{ recall: number; precision: number; caught: number; keys: number; falseAlarms: number; lookAlikes: number }> {
  let caught = 0;
  let keys = 0;
  let falseAlarms = 0;
  let lookAlikes = 0;
  for (const sample of labelledCorpus()) {
    const flagged = await flags(sample.path, sample.content);
    if (sample.secret) {
      keys += 1;
      if (flagged) caught += 1;
    } else {
      lookAlikes += 1;
      if (flagged) falseAlarms += 1;
    }
  }
  return { recall: caught / keys, precision: caught / Math.max(1, caught + falseAlarms), caught, keys, falseAlarms, lookAlikes };
}

async function printRecall(print: (line: string) => void, secretlintConfig: Parameters<typeof lintSource>[0]['options']['config']): Promise<void> {
  const line = (name: string, result: Awaited<ReturnType<typeof score>>) =>
    `secrets: R1 corpus ${name.padEnd(30)} recall ${(result.recall * 100).toFixed(1)}% (${result.caught}/${result.keys})   precision ${(result.precision * 100).toFixed(1)}%   false positives ${result.falseAlarms}/${result.lookAlikes} (target: recall ≥ 95%, false positives ≤ 5%)`;
  const secretlint = await score(async (path, content) => {
    const ext = path.slice(path.lastIndexOf('.'));
    const result = await lintSource({
      source: { filePath: path, content, ext, contentType: 'text' },
      options: { config: secretlintConfig, noPhysicFilePath: true },
    });
    return result.messages.length > 0;
  });
  const ours = await score(async (path, content) => (await scanSecrets(content, path, OPTIONS)).length > 0);
  print(line('secretlint recommended preset', secretlint));
  print(line('scanSecrets (R1)', ours));
}

interface Tally {
  caught: number;
  keys: number;
  falseAlarms: number;
  lookAlikes: number;
}

const recallOf = (tally: Tally) => tally.caught / Math.max(1, tally.keys);
const precisionOf = (tally: Tally) => tally.caught / Math.max(1, tally.caught + tally.falseAlarms);

/**
 * R1 and secretlint alone on the independent corpus (published key formats, respellings, look-alikes;
 * never read by a unit test), measured in the same run: recall and precision overall, recall per form.
 */
async function printIndependent(print: (line: string) => void, context: BenchContext): Promise<void> {
  const corpus = independentCorpus();
  const secretlintFlags = async (sample: IndependentSample) => {
    const ext = sample.path.slice(sample.path.lastIndexOf('.'));
    const result = await lintSource({
      source: { filePath: sample.path, content: sample.content, ext, contentType: 'text' },
      options: { config: secretlintConfig, noPhysicFilePath: true },
    });
    return result.messages.length > 0;
  };
  const r1Flags = async (sample: IndependentSample) => (await scanSecrets(sample.content, sample.path, OPTIONS)).length > 0;
  const tallies = { secretlint: new Map<string, Tally>(), r1: new Map<string, Tally>() };
  const missed: string[] = [];
  const falseAlarms: string[] = [];
  for (const sample of corpus) {
    for (const [name, flags] of [
      ['secretlint', secretlintFlags],
      ['r1', r1Flags],
    ] as const) {
      const flagged = await flags(sample);
      for (const key of ['all', sample.form]) {
        const tally = tallies[name].get(key) ?? { caught: 0, keys: 0, falseAlarms: 0, lookAlikes: 0 };
        if (sample.secret) {
          tally.keys += 1;
          if (flagged) tally.caught += 1;
        } else {
          tally.lookAlikes += 1;
          if (flagged) tally.falseAlarms += 1;
        }
        tallies[name].set(key, tally);
      }
      if (name === 'r1') {
        if (sample.secret && !flagged) missed.push(sample.id);
        if (!sample.secret && flagged) falseAlarms.push(sample.id);
      }
    }
  }
  const all = (name: 'secretlint' | 'r1') => tallies[name].get('all') as Tally;
  const line = (label: string, tally: Tally) =>
    `secrets: independent corpus, ${label.padEnd(30)} recall ${(recallOf(tally) * 100).toFixed(1)}% (${tally.caught}/${tally.keys})   precision ${(precisionOf(tally) * 100).toFixed(1)}%   false positives ${tally.falseAlarms}/${tally.lookAlikes}`;
  print(line('secretlint recommended preset', all('secretlint')));
  print(line('scanSecrets (R1)', all('r1')));
  for (const form of ['plain', 'pem', 'concatenation', 'join', 'template', 'base64', 'hex'] as const) {
    const ours = tallies.r1.get(form);
    const theirs = tallies.secretlint.get(form);
    if (ours === undefined || theirs === undefined) continue;
    print(`secrets: independent corpus, ${form.padEnd(13)} recall R1 ${ours.caught}/${ours.keys}, secretlint ${theirs.caught}/${theirs.keys}`);
  }
  if (missed.length > 0) print(`secrets: independent corpus, R1 missed: ${missed.join('; ')}`);
  if (falseAlarms.length > 0) print(`secrets: independent corpus, R1 false positives: ${falseAlarms.join('; ')}`);
  const baselineName = 'secretlint recommended preset alone';
  context.figure({
    name: 'R1 recall, independent corpus',
    value: recallOf(all('r1')) * 100,
    unit: '%',
    better: 'higher',
    detail: `${all('r1').caught}/${all('r1').keys} keys`,
    baseline: { name: baselineName, value: recallOf(all('secretlint')) * 100 },
    target: { on: 'value', atLeast: 95 },
  });
  context.figure({
    name: 'R1 precision, independent corpus',
    value: precisionOf(all('r1')) * 100,
    unit: '%',
    better: 'higher',
    detail: `${all('r1').falseAlarms}/${all('r1').lookAlikes} look-alikes flagged`,
    baseline: { name: baselineName, value: precisionOf(all('secretlint')) * 100 },
    target: { on: 'value', atLeast: 95 },
  });
}

const FLOOR = 'a bare charCodeAt loop';

/**
 * The generic detector alone on hostile single lines at 100 KB and 1 MB, after the floor for
 * "linear" on this machine: a bare character loop, which does no scanning work at all (made in the
 * process that measures them).
 */
export function genericDetectorGrowthCases(): GrowthCase[] {
  const genericOnly: SecretScanOptions = { ...OPTIONS, detectors: ['generic-assignment'] };
  const shapes: Record<string, string> = {
    'run of a': 'a',
    'run of quotes': '"',
    'run of =': '=',
    'password= repeats': 'password=',
    'password=" repeats': 'password="',
    'apiKey: repeats': 'apiKey: ',
    'key repeats': 'key',
    ':// repeats': '://',
    'Bearer repeats': 'Bearer ',
  };
  const characterLoop = (text: string) => () => {
    let sum = 0;
    for (let index = 0; index < text.length; index++) sum += text.charCodeAt(index);
    return sum;
  };
  const cases: GrowthCase[] = [
    { name: FLOOR, small: characterLoop(asParsed('a'.repeat(100_000))), large: characterLoop(asParsed('a'.repeat(1_000_000))), ratio: 10 },
  ];
  for (const [shape, unit] of Object.entries(shapes)) {
    for (const path of ['src/a.ts', '.env']) {
      const small = asParsed(unit.repeat(Math.ceil(100_000 / unit.length)));
      const large = asParsed(unit.repeat(Math.ceil(1_000_000 / unit.length)));
      cases.push({
        name: `generic detector, ${shape} in ${path}, time at 1 MB / at 100 KB`,
        small: () => scanSecrets(small, path, genericOnly),
        large: () => scanSecrets(large, path, genericOnly),
        ratio: 10,
      });
    }
  }
  return cases;
}

/**
 * R1's whole scan on hostile TS/JS for folding and decoding, at 20 KB and 200 KB (both under the size
 * past which a file is not parsed): a long `+` chain, nested parentheses, many joins, one long base64
 * run of text, many short base64 literals. Linear is about 10×; folding gives up past its budget.
 */
export function derivedGrowthCases(): GrowthCase[] {
  const base64Text = (length: number) =>
    Buffer.from('password=hunter2 '.repeat(Math.ceil(length / 12)))
      .toString('base64')
      .slice(0, length);
  const shapes: Record<string, (size: number) => string> = {
    '+ chain': (size) => `const k = ${"'ab' + ".repeat(Math.ceil(size / 7))}'';\n`,
    'nested parentheses': (size) => `const k = ${'('.repeat(Math.ceil(size / 10))}'a'${" + 'b')".repeat(Math.ceil(size / 10))};\n`,
    joins: (size) => "const k = ['ab', 'cd'].join('');\n".repeat(Math.ceil(size / 32)),
    'one base64 run': (size) => `const blob = '${base64Text(size)}';\n`,
    'many base64 literals': (size) => `const b = '${base64Text(40)}';\n`.repeat(Math.ceil(size / 56)),
  };
  return Object.entries(shapes).map(([shape, make]) => {
    const small = asParsed(make(20_000));
    const large = asParsed(make(200_000));
    return {
      name: `R1 folding and decoding, ${shape} in src/a.ts, time at 200 KB / at 20 KB`,
      small: () => scanSecrets(small, 'src/a.ts', OPTIONS),
      large: () => scanSecrets(large, 'src/a.ts', OPTIONS),
      ratio: 10,
    };
  });
}

type Corpus = readonly { readonly path: string; readonly content: string }[];

const secretlintConfig = { rules: [{ id: recommendedPreset.meta.id, rule: recommendedPreset }] };

async function secretlintAlone(files: Corpus): Promise<number> {
  let found = 0;
  for (const file of files) {
    const ext = file.path.slice(file.path.lastIndexOf('.'));
    const result = await lintSource({
      source: { filePath: file.path, content: file.content, ext, contentType: 'text' },
      options: { config: secretlintConfig, noPhysicFilePath: true },
    });
    found += result.messages.length;
  }
  return found;
}

async function r1Scan(files: Corpus): Promise<{ found: number; files: number }> {
  let found = 0;
  let withFindings = 0;
  for (const file of files) {
    const findings = (await scanSecrets(file.content, file.path, OPTIONS)).length;
    found += findings;
    if (findings > 0) withFindings++;
  }
  return { found, files: withFindings };
}

/** Both scans over one corpus, five times each in CPU time, alternating so both see the same machine. */
async function compareOn(label: string, density: Density, context: BenchContext): Promise<void> {
  const files = corpus(density);
  const totalMib = files.reduce((sum, file) => sum + file.content.length, 0) / MIB;
  const baselineFound = await secretlintAlone(files);
  const ours = await r1Scan(files);
  const baselineMs: number[] = [];
  const oursMs: number[] = [];
  for (let round = 0; round < 5; round++) {
    baselineMs.push(await cpuMsPerRun(() => secretlintAlone(files), 1));
    oursMs.push(await cpuMsPerRun(() => r1Scan(files), 1));
  }
  context.print(
    `secrets: ${label} corpus ${totalMib.toFixed(1)} MiB in ${files.length} files (TS, JSON, YAML), ${ours.files} with an R1 finding; findings: secretlint ${baselineFound}, R1 ${ours.found}`,
  );
  context.figure({
    name: `R1 scan, ${label} corpus`,
    value: totalMib / (median(oursMs) / 1000),
    unit: 'MiB/s',
    better: 'higher',
    baseline: { name: 'secretlint recommended preset alone', value: totalMib / (median(baselineMs) / 1000) },
    ...(density === CANDIDATE_HEAVY ? { target: { on: 'ratio', atLeast: 1 } } : {}),
  });
}

export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  await printRecall(print, secretlintConfig);
  await printIndependent(print, context);
  await compareOn('mixed', MIXED, context);
  await compareOn('candidate-heavy', CANDIDATE_HEAVY, context);

  for (const { name, smallMs, largeMs } of await measureGrowthApart(import.meta.url, 'derivedGrowthCases')) {
    context.figure({
      name,
      detail: `${smallMs.toFixed(2)} → ${largeMs.toFixed(2)} ms`,
      value: largeMs / smallMs,
      unit: '×',
      better: 'lower',
      target: { on: 'value', atMost: 12 },
    });
  }

  const measured = await measureGrowthApart(import.meta.url, 'genericDetectorGrowthCases');
  const floor = measured.find((item) => item.name === FLOOR);
  if (floor === undefined) throw new GrowthProcessError(`the growth process measured no ${FLOOR}`);
  for (const { name, smallMs, largeMs } of measured.filter((item) => item !== floor)) {
    context.figure({
      name,
      detail: `${smallMs.toFixed(2)} → ${largeMs.toFixed(2)} ms`,
      value: largeMs / smallMs,
      unit: '×',
      better: 'lower',
      baseline: { name: 'a bare charCodeAt loop (linear), the same way', value: floor.largeMs / floor.smallMs },
      target: { on: 'value', atMost: 12 },
    });
  }
}
