import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askBroker } from './gate-broker-client.js';
import { readBrokerRequest, startGateBroker } from './gate-broker.js';
import type { GateBroker } from './gate-broker.js';

const brokers: GateBroker[] = [];
afterEach(async () => {
  await Promise.all(brokers.splice(0).map((broker) => broker.close()));
});

async function broker(project: string, decide: Parameters<typeof startGateBroker>[0]['decide']): Promise<string> {
  const socketPath = join(mkdtempSync(join(tmpdir(), 'holdfast-broker-')), 'gate.sock');
  brokers.push(await startGateBroker({ socketPath, project, decide }));
  return socketPath;
}

describe('gate broker', () => {
  it('answers a hook event with what the decision said, over a real socket', async () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-broker-project-'));
    const socket = await broker(project, (request) => Promise.resolve({ stdout: `${request.argv.join(' ')}|${request.stdin}`, stderr: '', exitCode: 0 }));
    const answer = await askBroker(socket, { argv: ['claude-code', '--deadline-ms', '100'], cwd: project, stdin: '{"x":1}' }, 30_000);
    expect(answer).toEqual({ stdout: 'claude-code --deadline-ms 100|{"x":1}', stderr: '', exitCode: 0 });
  });

  it('refuses a request about a folder outside the project, without deciding it', async () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-broker-project-'));
    let decided = 0;
    const socket = await broker(project, () => {
      decided += 1;
      return Promise.resolve({ stdout: '', stderr: '', exitCode: 0 });
    });
    const answer = await askBroker(socket, { argv: ['claude-code'], cwd: tmpdir(), stdin: '{}' }, 30_000);
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toMatch(/outside the project/);
    expect(decided).toBe(0);
  });

  it('a decision that fails is a refusal (exit 2), and so is a broker that is not there', async () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-broker-project-'));
    const socket = await broker(project, () => Promise.reject(new Error('boom')));
    expect(await askBroker(socket, { argv: ['codex'], cwd: project, stdin: '{}' }, 30_000)).toMatchObject({
      exitCode: 2,
      stderr: expect.stringMatching(/boom/),
    });
    expect(await askBroker(join(project, 'none.sock'), { argv: ['codex'], cwd: project, stdin: '{}' }, 30_000)).toMatchObject({ exitCode: 2 });
  });

  it('reads only well-formed requests', () => {
    expect(readBrokerRequest('not json', '/')).toMatch(/could not read/);
    expect(readBrokerRequest(JSON.stringify({ argv: [1], cwd: '/', stdin: '' }), '/')).toMatch(/could not read/);
    expect(readBrokerRequest(JSON.stringify({ argv: ['git'], cwd: '/', stdin: '', projectDir: '/x' }), '/')).toEqual({
      argv: ['git'],
      cwd: '/',
      stdin: '',
      projectDir: '/x',
    });
  });

  it('keeps the index a git hook names when it is inside the project, and drops one elsewhere', () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-broker-index-'));
    const request = (gitIndexFile: unknown) => readBrokerRequest(JSON.stringify({ argv: ['git'], cwd: project, stdin: '', gitIndexFile }), project);
    expect(request(join(project, '.git', 'index.lock'))).toMatchObject({ gitIndexFile: join(project, '.git', 'index.lock') });
    expect(request('/elsewhere/.git/index')).not.toHaveProperty('gitIndexFile');
    expect(request('.git/index')).not.toHaveProperty('gitIndexFile');
    expect(request(7)).toMatch(/could not read/);
  });
});
