import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelList, startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeServer } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

const FILE_KEY = 'sk-from-dotenv-0123456789';
let folder = '';
let server: FakeServer;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'holdfast-targets-'));
  server = await startFakeOpenAi({ script: () => modelList(['local-model']) });
});
afterEach(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

async function writeConfig(): Promise<void> {
  await writeFile(
    join(folder, 'holdfast.config.yaml'),
    `targets:
  - { id: local, provider: openai-compatible, model: local-model, baseUrl: "${server.baseUrl}", keyEnv: LOCAL_KEY }
  - { id: claude, provider: anthropic, model: claude-sonnet-4-5 }
  - { id: agent, provider: command, command: [holdfast-no-such-agent, -p] }
`,
  );
  await writeFile(join(folder, '.env'), `LOCAL_KEY=${FILE_KEY}\n`);
}

describe('holdfast targets', () => {
  it('lists targets as JSON: key variable and whether it is set, never its value; reachability probed', async () => {
    await writeConfig();
    const io = memoryIo({ cwd: folder, env: { PATH: '/nonexistent' } });
    expect(await main(['targets', '--json', '--timeout', '5000'], io)).toBe(0);
    expect(io.out()).not.toContain(FILE_KEY);
    const listed = JSON.parse(io.out()) as { source: string; targets: Record<string, unknown>[] };
    expect(listed.source).toBe(join(folder, 'holdfast.config.yaml'));
    expect(listed.targets).toEqual([
      expect.objectContaining({ id: 'local', provider: 'openai-compatible', baseUrl: server.baseUrl, keyEnv: 'LOCAL_KEY', keySet: true, reachable: true }),
      expect.objectContaining({
        id: 'claude',
        provider: 'anthropic',
        keyEnv: 'ANTHROPIC_API_KEY',
        keySet: false,
        reachable: false,
        problem: 'no key: set ANTHROPIC_API_KEY in .env',
      }),
      expect.objectContaining({ id: 'agent', provider: 'command', command: ['holdfast-no-such-agent', '-p'], keyEnv: null, reachable: false }),
    ]);
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${FILE_KEY}`);
  });

  it('prints a table', async () => {
    await writeConfig();
    const io = memoryIo({ cwd: folder, env: { PATH: '/nonexistent', ANTHROPIC_API_KEY: 'sk-ant-shell-value' } });
    expect(await main(['targets', '--timeout', '5000'], io)).toBe(0);
    const out = io.out();
    expect(out).toMatch(/^local\s+openai-compatible\s+local-model\s+http:\/\/127\.0\.0\.1:\d+\/v1\s+LOCAL_KEY \(set\)\s+yes$/m);
    expect(out).toMatch(/^claude\s+anthropic\s+claude-sonnet-4-5\s+https:\/\/api\.anthropic\.com\s+ANTHROPIC_API_KEY \(set\)\s+yes$/m);
    expect(out).toContain('`holdfast-no-such-agent` is not on PATH');
    expect(out).toContain('  cannot run: holdfast-no-such-agent not found: install it or fix "command" in holdfast.config.yaml');
    expect(out).not.toContain('sk-ant-shell-value');
    expect(out).not.toContain(FILE_KEY);
  });

  it('lists the agent CLIs as agent-mode targets, each with how the tests drive it, and the install line when it is missing', async () => {
    await writeFile(
      join(folder, 'holdfast.config.yaml'),
      `targets:
  - { id: qwen, provider: qwen-code, env: [OPENAI_API_KEY] }
  - { id: oc, provider: opencode, model: gpt-4.1 }
  - { id: cp, provider: copilot-cli, binary: holdfast-no-such-copilot }
`,
    );
    const io = memoryIo({ cwd: folder, env: { PATH: '/nonexistent', HOLDFAST_AGENT_CACHE: join(folder, 'no-cache') } });
    expect(await main(['targets', '--timeout', '5000'], io)).toBe(0);
    const out = io.out();
    expect(out).toMatch(/^qwen\s+qwen-code\s+-\s+-\s+-\s+no$/m);
    expect(out).toContain('  cannot run: qwen not installed: npm i -g @qwen-code/qwen-code');
    expect(out).toContain('  cannot run: opencode not installed: npm i -g opencode-ai');
    expect(out).toContain('  cannot run: holdfast-no-such-copilot not found: install it or fix "binary" in holdfast.config.yaml');
    expect(out).toContain('  agent mode, tested end to end, offline: the real Qwen Code 0.24.4 on Node 24');
    expect(out).toContain('  agent mode, tested end to end, offline: the real OpenCode 1.18.33');
    expect(out).toContain('  agent mode, tested end to end, offline: the real Copilot CLI 1.0.102 with no GitHub login');
  });

  it('falls back to the built-in Ollama target without a config file', async () => {
    const io = memoryIo({ cwd: folder, env: {} });
    expect(await main(['targets', '--json', '--timeout', '50'], io)).toBe(0);
    const listed = JSON.parse(io.out()) as { source: string; targets: { id: string; baseUrl: string }[] };
    expect(listed.source).toBe('built-in');
    expect(listed.targets.map((target) => [target.id, target.baseUrl])).toEqual([['ollama-llama3', 'http://localhost:11434/v1']]);
  });

  it('refuses a bad config with exit 2, naming the target and field', async () => {
    await writeFile(join(folder, 'holdfast.config.yaml'), 'targets:\n  - { id: x, provider: anthropic, model: m, temperature: 9 }\n');
    const io = memoryIo({ cwd: folder });
    expect(await main(['targets'], io)).toBe(2);
    expect(io.err()).toContain('target "x", field "temperature"');
  });

  it('has a real --help and refuses unknown flags', async () => {
    const help = memoryIo({ cwd: folder });
    expect(await main(['targets', '--help'], help)).toBe(0);
    expect(help.out()).toContain('Usage: holdfast targets');
    const bad = memoryIo({ cwd: folder });
    expect(await main(['targets', '--nope'], bad)).toBe(2);
    expect(bad.err()).toContain('holdfast targets');
  });

  it('says what isolation sandboxed runs get here, and what to install when there is none', async () => {
    await writeConfig();
    const without = memoryIo({ cwd: folder, env: { PATH: '/nonexistent' } });
    expect(await main(['targets', '--timeout', '5000'], without)).toBe(0);
    expect(without.out()).toContain('Sandbox isolation: none (bubblewrap (bwrap) is not installed). `holdfast run --sandbox` refuses');
    expect(without.out()).toMatch(/apt-get install bubblewrap.*--unsafe-no-isolation/s);

    const json = memoryIo({ cwd: folder, env: { PATH: process.env.PATH } });
    expect(await main(['targets', '--json', '--timeout', '5000'], json)).toBe(0);
    const { detectIsolation } = await import('@holdfast/lab/sandbox');
    const expected = await detectIsolation();
    expect((JSON.parse(json.out()) as { isolation: unknown }).isolation).toMatchObject({ kind: expected.kind, detail: expected.detail });
  });
});
