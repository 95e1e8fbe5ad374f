import { join, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast serve [options]

The web app: pick targets and tasks, run, watch rounds land or get blocked, answer the commit
gate, read the verdicts. One process serves the API, the live event streams and the UI.

Options:
  --port N          port to listen on (default 5177; 0 picks a free one)
  --host H          address to bind (default 127.0.0.1; anything else is reachable from the network)
  --runs DIR        folder of run files to list and write (default ./runs)
  --tasks-dir DIR   the tasks the run form offers (default: the shipped tasks/; see \`holdfast tasks new\`)
  --rulebook FILE   the rulebook of runs started here (default: the shipped rulebooks/default.yaml)
  --open NAME       saved run the app opens first (default example.jsonl, the shipped example)
  --max-runs N      runs in progress at once (default 4); one more is answered 429 with Retry-After
  --max-model-calls N  model calls in flight across all runs (default 8); the rest wait their turn
  --dev             serve web/ through Vite with hot reload (needs the dev dependencies)
  --build-web       build the web app first if dist/web/index.html is missing (what \`npm start\` does)
  --queue redis://HOST:PORT
                    runs started here queue their rounds on Redis for \`holdfast worker\` processes
                    (see \`holdfast run --help\`, Scale out); the run's page shows each worker's rounds
                    and heartbeat. The workers hold the targets' keys; this server needs none
  -h, --help        this help

No key is needed to open the example run or to replay a saved run.
Stop with Ctrl-C: unfinished runs end "interrupted" and can be resumed with \`holdfast run --resume\`.

Exit codes: 0 stopped, 2 bad flag or the port is taken, 3 internal error.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    return await serve(args, io);
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, `holdfast serve: ${error.message}`);
      return EXIT.usage;
    }
    writeLine(io.stderr, `holdfast serve: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
}

function waitForStop(): Promise<string> {
  return new Promise((resolveStop) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('serve', args, {
    port: { type: 'string' },
    host: { type: 'string' },
    runs: { type: 'string' },
    open: { type: 'string' },
    'tasks-dir': { type: 'string' },
    rulebook: { type: 'string' },
    'max-runs': { type: 'string' },
    'max-model-calls': { type: 'string' },
    dev: { type: 'boolean', default: false },
    'build-web': { type: 'boolean', default: false },
    queue: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `unexpected argument "${positionals[0]}". See \`holdfast serve --help\`.`);
  const port = integerFlag('serve', 'port', values.port, 5177, 0, 65_535);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '' || /[\s/]/.test(host)) throw new InputError('E_ARGS', `--host must be an address or host name, got "${host}".`);
  const runsDir = values.runs !== undefined ? resolve(io.cwd, values.runs) : join(io.cwd, 'runs');
  const defaultRun = values.open ?? 'example.jsonl';
  const limits = {
    runs: integerFlag('serve', 'max-runs', values['max-runs'], 4, 1, 1_000),
    modelCalls: integerFlag('serve', 'max-model-calls', values['max-model-calls'], 8, 1, 1_000),
  };

  const tasksAndRulebook = {
    ...(values['tasks-dir'] !== undefined ? { tasksDir: resolve(io.cwd, values['tasks-dir']) } : {}),
    ...(values.rulebook !== undefined ? { rulebookPath: resolve(io.cwd, values.rulebook) } : {}),
  };
  const queue = values.queue === undefined ? undefined : (await import('@holdfast/lab/scale')).parseQueueUrl(values.queue);
  const server = await import('@holdfast/app');
  try {
    server.runFilePath(runsDir, defaultRun);
  } catch (error) {
    throw new InputError('E_ARGS', `--open: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const assetsDir = server.defaultAssetsDir();
  if (!values.dev && !(await server.assetsBuilt(assetsDir))) {
    if (values['build-web']) {
      writeLine(io.stderr, `Building the web app into ${assetsDir}…`);
      await server.buildWebApp(server.appRoot(), assetsDir);
    } else {
      writeLine(io.stderr, `Note: the web app is not built (${assetsDir}); the API works, pages answer 503. Use --build-web or --dev.`);
    }
  }
  if (!server.isLoopbackHost(host)) {
    writeLine(io.stderr, `Warning: bound to ${host}, beyond loopback: anyone who can reach this address can start runs and answer approvals.`);
  }
  let started;
  try {
    started = await server.createServer({
      cwd: io.cwd,
      host,
      port,
      dev: values.dev,
      runsDir,
      env: io.env,
      defaultRun,
      limits,
      ...tasksAndRulebook,
      ...(queue !== undefined ? { queue } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new InputError('E_PORT', `port ${port} on ${host} is taken; pick another with --port.`, { cause: error });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new InputError('E_HOST', `cannot bind ${host}: no such local address.`, { cause: error });
    throw error;
  }
  writeLine(io.stdout, `holdfast is listening on ${started.url}${values.dev ? ' (development, hot reload)' : ''}`);
  if (queue !== undefined) writeLine(io.stderr, `Runs started here go to \`holdfast worker --queue ${queue.label}\` processes.`);
  const signal = await waitForStop();
  writeLine(io.stderr, `\n${signal}: stopping (unfinished runs end interrupted)…`);
  await started.close();
  return EXIT.ok;
}
