import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_CLIENTS, AgentClientError, agentCacheRoot, agentClientFolder, ensureAgentClient } from './clients.js';

/** A port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function fakeInstall(root: string, name: 'claude-code' | 'codex'): string {
  const folder = agentClientFolder(AGENT_CLIENTS[name], root);
  const bin = join(folder, AGENT_CLIENTS[name].bin);
  mkdirSync(dirname(bin), { recursive: true });
  writeFileSync(bin, '#!/bin/sh\n');
  writeFileSync(join(folder, '.holdfast-installed'), 'x\n');
  return bin;
}

describe('the agent client cache', () => {
  it('lives under ~/.cache/holdfast/agents unless HOLDFAST_AGENT_CACHE says otherwise', () => {
    expect(agentCacheRoot({ HOLDFAST_AGENT_CACHE: '/srv/agents' })).toBe('/srv/agents');
    expect(agentCacheRoot({})).toMatch(/\.cache\/holdfast\/agents$/);
    expect(agentClientFolder(AGENT_CLIENTS.codex, '/srv/agents')).toBe('/srv/agents/codex@0.171.0');
  });

  it('returns an installed client without running npm', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-agent-cache-'));
    const bin = fakeInstall(root, 'codex');
    await expect(ensureAgentClient('codex', { root, npmEnv: { PATH: '' } })).resolves.toBe(bin);
  });

  it('waits on another install that holds the lock and uses what it installed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-agent-cache-'));
    const folder = agentClientFolder(AGENT_CLIENTS['claude-code'], root);
    mkdirSync(`${folder}.lock`, { recursive: true });
    let waits = 0;
    const bin = await ensureAgentClient('claude-code', {
      root,
      npmEnv: { PATH: '' },
      sleep: async () => {
        waits += 1;
        if (waits === 2) fakeInstall(root, 'claude-code');
      },
    });
    expect(bin).toBe(join(folder, AGENT_CLIENTS['claude-code'].bin));
    expect(waits).toBe(2);
    expect(existsSync(`${folder}.lock`)).toBe(true); // the other process's lock is its own to remove
  });

  it('fails, naming the package and the command to run, when npm cannot reach the registry', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-agent-cache-'));
    const npmEnv = {
      ...process.env,
      npm_config_registry: `http://127.0.0.1:${await deadPort()}/`,
      npm_config_fetch_retries: '0',
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_offline: 'false',
    };
    const failure = await ensureAgentClient('codex', { root, npmEnv }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentClientError);
    expect((failure as AgentClientError).code).toBe('E_AGENT_CLIENT');
    expect((failure as Error).message).toContain('@openai/codex@0.171.0');
    expect((failure as Error).message).toContain(`npm install --prefix ${join(root, 'codex@0.171.0')}`);
    expect(existsSync(join(root, 'codex@0.171.0.lock'))).toBe(false);
  });
});
