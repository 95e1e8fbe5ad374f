import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStartedResponseSchema } from '@holdfast/core/contract';
import type { RunEndEvent, RunEvent } from '@holdfast/core/contract';
import { createApp } from './create-app.js';
import type { HoldfastApp } from './create-app.js';
import { makeWorkspace, waitForEvent } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';
const JSON_POST = { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/json' };

// Built from pieces at run time: these are fakes, and no literal in the source looks like a key.
const piece = (prefix: string, seed: string) => `${prefix}${seed.repeat(6)}${seed.length}Q7`;
const SECRETS = {
  keyEnv: piece('sk-proj-', 'kEyEnV0'),
  env: piece('login-', 'EnvPassed9'),
  argument: piece('arg-', 'ArGvAlUe3'),
  argumentEquals: piece('tok-', 'EqUaLs42'),
};

/** A command target that echoes every secret it was given into its reply, a written file, a command and stderr. */
const ECHOER = `
let prompt = '';
process.stdin.on('data', (chunk) => (prompt += chunk));
process.stdin.on('end', () => {
  const given = [process.env.HOLDFAST_TEST_KEY, process.env.AGENT_LOGIN, process.argv[3], process.argv[4].split('=')[1]];
  process.stderr.write('debug: ' + given.join(' ') + '\\n');
  process.stdout.write(JSON.stringify({
    reasoning: 'I was given ' + given.join(', '),
    actions: [
      { type: 'write', path: 'src/config.ts', content: 'export const keys = ' + JSON.stringify(given) + ';\\n' },
      { type: 'run', cmd: 'curl -H "Authorization: Bearer ' + given[0] + '" http://127.0.0.1:9/' },
    ],
  }));
});
`;

let workspace: ReturnType<typeof makeWorkspace>;
let holdfast: HoldfastApp;
const logged: string[] = [];

beforeEach(() => {
  workspace = makeWorkspace();
  const script = join(workspace.cwd, 'echoer.cjs');
  writeFileSync(script, ECHOER);
  writeFileSync(
    join(workspace.cwd, 'holdfast.config.yaml'),
    [
      'version: 1',
      'targets:',
      '  - id: echoer',
      '    provider: command',
      `    command: ["${process.execPath}", "${script}", "--api-key", "${SECRETS.argument}", "--token=${SECRETS.argumentEquals}"]`,
      '    keyEnv: HOLDFAST_TEST_KEY',
      '    env: [AGENT_LOGIN]',
      '',
    ].join('\n'),
  );
  logged.length = 0;
  holdfast = createApp({
    cwd: workspace.cwd,
    runsDir: workspace.runsDir,
    env: { ...workspace.env, PATH: process.env.PATH, HOLDFAST_TEST_KEY: SECRETS.keyEnv, AGENT_LOGIN: SECRETS.env },
    host: '127.0.0.1',
    port: 5177,
    generateId: () => 'run-redaction',
    log: (line) => logged.push(line),
  });
});

afterEach(async () => {
  await holdfast.runs.cancelAll();
  workspace.cleanup();
});

const get = (url: string, headers: Record<string, string> = {}) => inject(holdfast.app, { method: 'GET', url, headers: { host: HOST, ...headers } });

describe('redaction of every secret a target is given', () => {
  it('keeps keyEnv, env: values and key arguments out of the run file, the API, the stream and the log', async () => {
    const started = await inject(holdfast.app, {
      method: 'POST',
      url: '/api/run',
      headers: JSON_POST,
      payload: JSON.stringify({ targets: ['echoer'], tasks: ['bump-date-fns'], reps: 1 }),
    });
    expect(started.statusCode, started.body).toBe(201);
    const { runId, name } = RunStartedResponseSchema.parse(started.json());
    const run = holdfast.runs.get(runId);
    if (run === undefined) throw new Error('the started run is not registered');
    const end = await waitForEvent(run, (event: RunEvent): event is RunEndEvent => event.type === 'run-end');
    expect(end.status).toBe('completed');

    const runFile = readFileSync(join(workspace.runsDir, name), 'utf8');
    const outputs: Record<string, string> = {
      'run file': runFile,
      'GET /api/runs/:name': (await get(`/api/runs/${name}`)).body,
      'GET /api/runs/:name as JSON': (await get(`/api/runs/${name}`, { accept: 'application/json' })).body,
      'GET /api/runs/:name lean': (await get(`/api/runs/${name}?view=lean`, { 'accept-encoding': 'identity' })).body,
      'GET /api/run/:id/stream': (await get(`/api/run/${runId}/stream`)).body,
      'GET /api/run/:name/stream': (await get(`/api/run/${name}/stream`)).body,
      'live run events': JSON.stringify(run.events),
      log: logged.join('\n'),
    };
    // The echo really happened: the reply's text is in the file, with the keys blotted out.
    expect(runFile).toContain('I was given [redacted], [redacted], [redacted], [redacted]');
    for (const [output, text] of Object.entries(outputs)) {
      for (const [given, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${given} in ${output}`).toBe(false);
    }
  });
});
