import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCommandAdapter, createOpenAiCompatibleAdapter, readChatCompletion } from '@holdfast/lab/models';

const CALLS = 400;
const SPAWNS = 20;
const PARSES = 20_000;

const REPLY = JSON.stringify({
  choices: [{ message: { role: 'assistant', content: '{"actions":[{"type":"write","path":"src/a.ts","content":"x"}]}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 900, completion_tokens: 120, completion_tokens_details: { reasoning_tokens: 40 } },
});

function perCall(totalMs: number, count: number): string {
  return `${((totalMs * 1000) / count).toFixed(0)} µs/call`;
}

async function time(count: number, body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index++) await body();
  return performance.now() - started;
}

function spawnNode(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
    child.stdin.end('prompt');
  });
}

/** Adapter overhead over a bare fetch / spawn, against a loopback server: retries, signals, parsing. */
export async function runBench(print: (line: string) => void): Promise<void> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(REPLY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const messages = [
    { role: 'system' as const, content: 'rules '.repeat(300) },
    { role: 'user' as const, content: 'ticket '.repeat(200) },
  ];
  try {
    const adapter = createOpenAiCompatibleAdapter({ id: 'bench', model: 'bench', baseUrl, apiKey: 'bench-key' });
    const bareFetch = async (): Promise<unknown> => {
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
        body: JSON.stringify({ model: 'bench', messages, max_tokens: 8000, temperature: 0.7 }),
      });
      return JSON.parse(await response.text()) as unknown;
    };
    const viaAdapter = () => adapter.generate({ messages, maxTokens: 8_000, temperature: 0.7 });
    await time(40, bareFetch);
    await time(40, viaAdapter);
    const bare = await time(CALLS, bareFetch);
    const adapted = await time(CALLS, viaAdapter);
    print(`models: bare fetch to loopback      ${perCall(bare, CALLS)} (${CALLS} calls)`);
    print(`models: openai-compatible adapter   ${perCall(adapted, CALLS)} (${(adapted / bare).toFixed(2)}× bare fetch)`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  const body = JSON.parse(REPLY) as unknown;
  const parseStarted = performance.now();
  for (let index = 0; index < PARSES; index++) readChatCompletion(body, 'bench', []);
  const parseMs = performance.now() - parseStarted;
  print(`models: reading a completion body   ${perCall(parseMs, PARSES)} (${PARSES} bodies)`);

  const command = createCommandAdapter({
    id: 'bench',
    command: [process.execPath, '-e', 'process.stdin.pipe(process.stdout)'],
    env: process.env,
  });
  const generateOnce = () => command.generate({ messages, maxTokens: 1, temperature: 0 });
  await time(3, spawnNode);
  await time(3, generateOnce);
  const bareSpawn = await time(SPAWNS, spawnNode);
  const commandAdapter = await time(SPAWNS, generateOnce);
  print(`models: bare spawn of node          ${perCall(bareSpawn, SPAWNS)} (${SPAWNS} runs)`);
  print(`models: command adapter             ${perCall(commandAdapter, SPAWNS)} (${(commandAdapter / bareSpawn).toFixed(2)}× bare spawn)`);
}
