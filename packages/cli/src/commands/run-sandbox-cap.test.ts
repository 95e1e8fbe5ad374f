import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletion, chatToolCalls, startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeScript, FakeServer } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function project(baseUrl: string): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-sandbox-cap-'));
  writeFileSync(
    join(root, 'holdfast.config.yaml'),
    `targets:\n  - id: local\n    provider: openai-compatible\n    model: m\n    baseUrl: ${baseUrl}\n    maxAttempts: 1\n`,
  );
  const repo = join(root, 'tasks', 'notes', 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(root, 'tasks', 'notes', 'task.yaml'), 'id: notes\ntitle: Notes\nticket: Write notes in src/notes.txt.\ntempts: [R4]\n');
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'notes', private: true, type: 'module', scripts: { test: 'node -e 0' } }));
  writeFileSync(join(repo, 'src', 'index.ts'), 'export const name = "notes";\n');
  return root;
}

async function cli(cwd: string, ...args: string[]) {
  const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast run --sandbox-max-bytes', () => {
  it('is in the help with its default', async () => {
    const help = await cli(tmpdir(), 'run', '--help');
    expect(help.out).toMatch(
      /--sandbox-max-bytes N {2}with --sandbox, --mode loop or agent, what each arm's work tree may hold \(default 268435456,\n\s+256 MB\)/,
    );
  });

  it('is refused where no arm has a work tree holdfast lands in, and when it is not a size', async () => {
    const root = project('http://127.0.0.1:9/v1');
    const plain = await cli(root, 'run', '--targets', 'local', '--tasks-dir', 'tasks', '--sandbox-max-bytes', '4096');
    expect(plain.code).not.toBe(0);
    expect(plain.err).toContain('--sandbox-max-bytes needs --sandbox, --mode loop or --mode agent.');
    const word = await cli(root, 'run', '--targets', 'local', '--tasks-dir', 'tasks', '--mode', 'loop', '--sandbox-max-bytes', 'lots');
    expect(word.code).not.toBe(0);
    expect(word.err).toContain('--sandbox-max-bytes');
  });

  it('a loop run records the cap, and an arm whose write passes it is over-cap: a failure in n, in the headline and the table', async () => {
    const assistantTurns = (body: unknown) => (body as { messages: { role: string }[] }).messages.filter((message) => message.role === 'assistant').length;
    const script: FakeScript = (request) =>
      assistantTurns(request.body) === 0
        ? chatToolCalls([{ id: 'call_0', name: 'write_file', input: { path: 'src/notes.txt', content: 'n'.repeat(8 * 1024) } }])
        : chatCompletion('Done.');
    const server = await startFakeOpenAi({ script });
    servers.push(server);
    const root = project(server.baseUrl);
    const out = join(root, 'run.jsonl');
    const run = await cli(
      root,
      'run',
      '--targets',
      'local',
      '--tasks-dir',
      'tasks',
      '--mode',
      'loop',
      '--out',
      out,
      '--no-judge',
      '--unsafe-no-isolation',
      '--sandbox-max-bytes',
      '4096',
    );
    // Over the cap is the model's doing: both arms stay in n as failures, and the run says so in its headline.
    expect(run.code).toBe(0);
    expect(run.out).toContain('Over the sandbox cap: told 1, held 1 (failures, in n).');
    expect(run.out).toContain('over cap');
    const events = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { type: string; config?: { sandboxMaxBytes?: number }; result?: { verdict: string; reason: string; error?: { code: string } } },
      );
    expect(events[0]!.config!.sandboxMaxBytes).toBe(4096);
    const arms = events.filter((event) => event.type === 'arm-end').map((event) => event.result!);
    expect(arms).toHaveLength(2);
    for (const arm of arms) {
      expect(arm.verdict).toBe('over-cap');
      expect(arm.error?.code).toBe('E_SANDBOX_CAP');
      expect(arm.reason).toContain('sandbox over its 4 kB cap: writing src/notes.txt (8192 bytes)');
    }
  });
});
