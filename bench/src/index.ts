import { fileURLToPath } from 'node:url';
import { completeFigure, formatFigure } from './figure.js';
import type { Figure, RecordFigure } from './figure.js';

/** What a benchmark gets: a line for people, a figure for people and machines, and the run's options. */
export interface BenchContext {
  readonly print: (line: string) => void;
  readonly figure: RecordFigure;
  /** `--peers`: measure the peers that must be installed first (promptfoo), into a cache outside the project. */
  readonly peers: boolean;
  /** `--model TARGET`: a live model target (holdfast.config.yaml in the current folder) for the benches that measure one (drafting). */
  readonly model?: string;
}

type Bench = { runBench(print: (line: string) => void, context: BenchContext): Promise<void> };

/** Every benchmark, in the order `npm run bench` runs them; `npm run bench -- NAME…` runs a subset. */
const BENCHES: Record<string, () => Promise<Bench>> = {
  checks: () => import('./checks.js'),
  hostile: () => import('./hostile.js'),
  memory: () => import('./memory.js'),
  secrets: () => import('./secrets.js'),
  reply: () => import('./reply.js'),
  store: () => import('./store.js'),
  runner: () => import('./runner.js'),
  models: () => import('./models.js'),
  pressure: () => import('./pressure.js'),
  gate: () => import('./gate.js'),
  post: () => import('./post-check.js'),
  sse: () => import('./sse.js'),
  sandbox: () => import('./sandbox.js'),
  web: () => import('./web.js'),
  scale: () => import('./scale.js'),
  drafting: () => import('./drafting.js'),
  verify: () => import('./verify.js'),
};

const USAGE = `Usage: npm run bench -- [--json] [--peers] [--model TARGET] [NAME…]
  --json    print the figures as one JSON document on stdout (lines for people go to stderr)
  --peers   also measure peers installed on demand (promptfoo) into ~/.cache/holdfast/peers
  --model TARGET  drafting: also measure \`holdfast init --model TARGET\`'s drafter, with this live target of the
            holdfast.config.yaml in the current folder (its key from the environment or .env); opt-in, it calls the model
Benchmarks: ${Object.keys(BENCHES).join(', ')}`;

async function main(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const peers = args.includes('--peers');
  if (args.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const modelAt = args.indexOf('--model');
  const model = modelAt === -1 ? undefined : args[modelAt + 1];
  if (modelAt !== -1 && (model === undefined || model.startsWith('-'))) {
    console.error(`--model needs a target id\n${USAGE}`);
    return 2;
  }
  const rest = modelAt === -1 ? args : [...args.slice(0, modelAt), ...args.slice(modelAt + 2)];
  const flags = rest.filter((arg) => arg.startsWith('-') && arg !== '--json' && arg !== '--peers');
  const names = rest.filter((arg) => !arg.startsWith('-'));
  const unknown = [...flags, ...names.filter((name) => !(name in BENCHES))];
  if (unknown.length > 0) {
    console.error(`unknown benchmark or flag ${unknown.join(', ')}\n${USAGE}`);
    return 2;
  }
  const say = json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const figures: Figure[] = [];
  const selected = names.length > 0 ? names : Object.keys(BENCHES);
  say(`holdfast benchmarks on node ${process.version}; figures are medians unless said otherwise, baselines and peers are measured in the same run.`);
  for (const name of selected) {
    say(`\n== ${name}`);
    const started = performance.now();
    const bench = await BENCHES[name]!();
    const figure: RecordFigure = (input) => {
      const complete = completeFigure(name, input);
      figures.push(complete);
      say(`${name}: ${formatFigure(complete)}`);
    };
    await bench.runBench(say, { print: say, figure, peers, ...(model !== undefined ? { model } : {}) });
    say(`(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  const missed = figures.filter((figure) => figure.met === false);
  say(
    `\n${figures.length} figures with targets or baselines, ${missed.length} missed${missed.length > 0 ? `: ${missed.map((figure) => `${figure.bench}/${figure.name}`).join(', ')}` : ''}.`,
  );
  if (json) console.log(JSON.stringify({ node: process.version, figures }, null, 2));
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
