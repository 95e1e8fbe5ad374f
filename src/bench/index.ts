import { fileURLToPath } from 'node:url';

/** Every benchmark, in the order `npm run bench` runs them; `npm run bench -- NAME…` runs a subset. */
const BENCHES: Record<string, () => Promise<{ runBench(print: (line: string) => void): Promise<void> }>> = {
  checks: () => import('./checks.js'),
  hostile: () => import('./hostile.js'),
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
};

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
    return 2;
  }
  const selected = names.length > 0 ? names : Object.keys(BENCHES);
  console.log(`holdfast benchmarks on node ${process.version}; figures are medians unless said otherwise, ratios use a baseline from the same run.`);
  for (const name of selected) {
    console.log(`\n== ${name}`);
    const started = performance.now();
    const bench = await BENCHES[name]!();
    await bench.runBench((line) => console.log(line));
    console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
