import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandAdapter, renderPrompt } from './command-adapter.js';
import type { CommandAdapterOptions } from './command-adapter.js';
import { ProviderError } from './provider-error.js';
import { testRuntime } from './test-support/test-runtime.js';

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'holdfast-command-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function script(name: string, source: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, source);
  return path;
}

function adapter(command: string[], options: Partial<CommandAdapterOptions> = {}) {
  return createCommandAdapter({ id: 'script', command, env: { PATH: process.env['PATH'] ?? '' }, runtime: testRuntime(), ...options });
}

const request = {
  messages: [
    { role: 'system', content: 'RULES' },
    { role: 'user', content: 'TICKET' },
  ],
  maxTokens: 8_000,
  temperature: 0.7,
} as const;

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

/** Waits for a condition the code under test brings about; the test's own time limit bounds it. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Running, and not a zombie waiting for a reaper (containers often have none). */
async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe('command adapter', () => {
  it('writes the prompt on stdin and returns stdout', async () => {
    const echo = await script('echo.mjs', `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>process.stdout.write('GOT:'+s));`);
    const result = await adapter([process.execPath, echo]).generate(request);
    expect(result).toMatchObject({ text: 'GOT:RULES\n\nTICKET', attempts: 1, usage: {} });
  });

  it('passes arguments without a shell', async () => {
    const args = await script('args.mjs', `process.stdout.write(JSON.stringify(process.argv.slice(2)));`);
    const result = await adapter([process.execPath, args, '$HOME', '; rm -rf /', '`id`']).generate(request);
    expect(JSON.parse(result.text)).toEqual(['$HOME', '; rm -rf /', '`id`']);
  });

  it('runs with a scrubbed environment plus the allowlist', async () => {
    const env = await script('env.mjs', `process.stdout.write(JSON.stringify(process.env));`);
    const result = await createCommandAdapter({
      id: 'env',
      command: [process.execPath, env],
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: '/home/someone',
        LANG: 'C.UTF-8',
        OPENAI_API_KEY: 'sk-leak',
        GITHUB_TOKEN: 'ghp-leak',
        DB_PASSWORD: 'hunter2',
        RANDOM_THING: 'not named',
        ANTHROPIC_API_KEY: 'sk-ant-allowed',
      },
      allowEnv: ['ANTHROPIC_API_KEY'],
      runtime: testRuntime(),
    }).generate(request);
    const seen = JSON.parse(result.text) as Record<string, string>;
    expect(seen).toMatchObject({ HOME: '/home/someone', LANG: 'C.UTF-8', ANTHROPIC_API_KEY: 'sk-ant-allowed' });
    expect(seen).not.toHaveProperty('OPENAI_API_KEY');
    expect(seen).not.toHaveProperty('GITHUB_TOKEN');
    expect(seen).not.toHaveProperty('DB_PASSWORD');
    expect(seen).not.toHaveProperty('RANDOM_THING');
  });

  it('turns a non-zero exit into a non-retryable error naming the code and the stderr tail', async () => {
    const fails = await script('fails.mjs', `process.stderr.write('x'.repeat(5000)+' quota exhausted for sk-ant-allowed');process.exit(3);`);
    const runtime = testRuntime();
    const error = await failure(
      createCommandAdapter({
        id: 'fails',
        command: [process.execPath, fails],
        env: { PATH: process.env['PATH'] ?? '', ANTHROPIC_API_KEY: 'sk-ant-allowed' },
        allowEnv: ['ANTHROPIC_API_KEY'],
        runtime,
      }).generate(request),
    );
    expect(error).toMatchObject({ code: 'E_COMMAND_EXIT', retryable: false, attempts: 1 });
    expect(error.message).toContain('exited with code 3');
    expect(error.message).toContain('quota exhausted');
    expect(error.message).not.toContain('sk-ant-allowed');
    expect(runtime.sleeps).toEqual([]);
  });

  it('kills the whole process tree on timeout', async () => {
    const pidFile = join(folder, 'grandchild.pid');
    const parent = await script(
      'hang.mjs',
      `import { spawn } from 'node:child_process'; import { writeFileSync } from 'node:fs';
       const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
       setInterval(() => {}, 1000);`,
    );
    // The time is up once the grandchild exists, however long node takes to start here.
    const runtime = testRuntime();
    const call = failure(adapter([process.execPath, parent], { timeoutMs: 2_500, retry: { maxAttempts: 1 }, runtime }).generate(request));
    await until(async () => (await readFile(pidFile, 'utf8').catch(() => '')) !== '');
    runtime.expireDeadlines();
    const error = await call;
    expect(error).toMatchObject({ code: 'E_PROVIDER_TIMEOUT', retryable: true });
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    await until(async () => !(await alive(grandchild)));
  });

  it('tries a timeout once more by default', async () => {
    const sleeper = await script('sleep.mjs', `setTimeout(() => {}, 10000);`);
    const runtime = testRuntime();
    // Every attempt's time is up as soon as it starts: two attempts, one wait between them.
    const expiring = { ...runtime, deadline: (expire: () => void) => (setImmediate(expire), () => undefined) };
    const error = await failure(adapter([process.execPath, sleeper], { timeoutMs: 150, runtime: expiring }).generate(request));
    expect(error).toMatchObject({ code: 'E_PROVIDER_TIMEOUT', attempts: 2 });
    expect(runtime.sleeps).toHaveLength(1);
  });

  it('stops a program that prints more than the output cap', async () => {
    const flood = await script(
      'flood.mjs',
      `const line='y'.repeat(1023)+'\\n'; function go(){ while(process.stdout.write(line)); process.stdout.once('drain', go); } go();`,
    );
    const error = await failure(adapter([process.execPath, flood], { outputLimitBytes: 64 * 1024 }).generate(request));
    expect(error).toMatchObject({ code: 'E_COMMAND_OUTPUT', retryable: false });
  });

  it('names a program that cannot be started', async () => {
    const error = await failure(adapter(['holdfast-no-such-program-xyz']).generate(request));
    expect(error).toMatchObject({ code: 'E_COMMAND_SPAWN', retryable: false });
    expect(error.message).toContain('ENOENT');
  });

  it('tolerates a program that never reads stdin', async () => {
    const ignores = await script('ignores.mjs', `process.stdout.write('fine');`);
    const big = { ...request, messages: [{ role: 'user' as const, content: 'z'.repeat(2_000_000) }] };
    expect((await adapter([process.execPath, ignores]).generate(big)).text).toBe('fine');
  });

  it('is cancelled by the caller’s signal', async () => {
    const sleeper = await script('sleep2.mjs', `setTimeout(() => {}, 10000);`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(adapter([process.execPath, sleeper]).generate({ ...request, signal: controller.signal }));
    expect(error).toMatchObject({ code: 'E_PROVIDER_ABORTED', retryable: false });
  });
});

describe('renderPrompt', () => {
  it('puts the system prompt first and marks earlier replies', () => {
    expect(
      renderPrompt([
        { role: 'user', content: 'U1' },
        { role: 'system', content: 'S' },
        { role: 'assistant', content: 'A1' },
        { role: 'user', content: 'U2' },
      ]),
    ).toBe('S\n\nU1\n\nYour earlier reply:\nA1\n\nU2');
  });
});
