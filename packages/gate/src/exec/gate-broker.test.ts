import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askBroker } from './gate-broker-client.js';
import { readBrokerRequest, startGateBroker } from './gate-broker.js';
import { layoutChanges, repositoryLayout } from './exec-plan.js';
import type { BrokerJudging, GateBroker } from './gate-broker.js';

const JUDGING: BrokerJudging = {
  rulebooks: {
    'claude-code': '/p/claude.yaml',
    codex: '/p/codex.yaml',
    'gemini-cli': '/p/gemini.yaml',
    'qwen-code': '/p/qwen.yaml',
    opencode: '/p/opencode.yaml',
    'copilot-cli': '/p/copilot.yaml',
    git: '/p/git.yaml',
  },
  observe: { codex: true },
  claudeProjectDir: '/p',
};

const brokers: GateBroker[] = [];
afterEach(async () => {
  await Promise.all(brokers.splice(0).map((broker) => broker.close()));
});

async function broker(project: string, decide: Parameters<typeof startGateBroker>[0]['decide']): Promise<string> {
  const socketPath = join(mkdtempSync(join(tmpdir(), 'holdfast-broker-')), 'gate.sock');
  brokers.push(await startGateBroker({ socketPath, project, judging: JUDGING, decide }));
  return socketPath;
}

describe('gate broker', () => {
  it('answers a hook event with what the decision said, over a real socket', async () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-broker-project-'));
    const socket = await broker(project, (request) => Promise.resolve({ stdout: `${request.argv.join(' ')}|${request.stdin}`, stderr: '', exitCode: 0 }));
    const answer = await askBroker(socket, { argv: ['claude-code', '--deadline-ms', '100'], cwd: project, stdin: '{"x":1}' }, 30_000);
    expect(answer).toEqual({ stdout: 'claude-code --deadline-ms 100 --rulebook /p/claude.yaml|{"x":1}', stderr: '', exitCode: 0 });
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
    expect(readBrokerRequest('not json', '/', JUDGING)).toMatch(/could not read/);
    expect(readBrokerRequest(JSON.stringify({ argv: [1], cwd: '/', stdin: '' }), '/', JUDGING)).toMatch(/could not read/);
    expect(readBrokerRequest(JSON.stringify({ argv: ['git'], cwd: '/', stdin: '', projectDir: '/x' }), '/', JUDGING)).toEqual({
      argv: ['git', '--rulebook', '/p/git.yaml'],
      cwd: '/',
      stdin: '',
    });
  });

  it('rebuilds every command from the judging fixed at exec start: no flag of the request is read but the deadline', () => {
    const argv = (sent: unknown[]) => {
      const read = readBrokerRequest(JSON.stringify({ argv: sent, cwd: '/', stdin: '', projectDir: '/elsewhere' }), '/', JUDGING);
      return typeof read === 'string' ? read : [read.argv.join(' '), read.projectDir];
    };
    expect(argv(['claude-code', '--observe', '--rulebook', '/tmp/mine.yaml', '--deadline-ms', '9'])).toEqual([
      'claude-code --deadline-ms 9 --rulebook /p/claude.yaml',
      '/p',
    ]);
    expect(argv(['codex', '--rulebook=/tmp/mine.yaml', '--help'])).toEqual(['codex --rulebook /p/codex.yaml --observe', undefined]);
    expect(argv(['git', 'reference-transaction', '--observe'])).toEqual(['git reference-transaction --rulebook /p/git.yaml', undefined]);
    // As the installed hook names it: after its options. A rulebook path that reads like the word is not it.
    expect(argv(['git', '--rulebook', '/p/git.yaml', 'reference-transaction'])).toEqual(['git reference-transaction --rulebook /p/git.yaml', undefined]);
    expect(argv(['git', '--rulebook', 'reference-transaction'])).toEqual(['git --rulebook /p/git.yaml', undefined]);
    expect(argv(['claude-code', '--deadline-ms', '-5'])).toEqual(['claude-code --rulebook /p/claude.yaml', '/p']);
    expect(argv(['--observe', 'claude-code'])).toMatch(/no agent/);
    expect(argv([])).toMatch(/no agent/);
  });

  it('keeps the index a git hook names when it is inside the project, and drops one elsewhere', () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-broker-index-'));
    const request = (gitIndexFile: unknown) => readBrokerRequest(JSON.stringify({ argv: ['git'], cwd: project, stdin: '', gitIndexFile }), project, JUDGING);
    expect(request(join(project, '.git', 'index.lock'))).toMatchObject({ gitIndexFile: join(project, '.git', 'index.lock') });
    expect(request('/elsewhere/.git/index')).not.toHaveProperty('gitIndexFile');
    expect(request('.git/index')).not.toHaveProperty('gitIndexFile');
    expect(request(7)).toMatch(/could not read/);
  });
});

describe('the repository layout exec records', () => {
  it('sees a commondir, an alternates file or info/ made after exec started, and the broker refuses every request then', async () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-layout-'));
    execFileSync('git', ['init', '-q'], { cwd: project });
    const before = repositoryLayout(project);
    expect(layoutChanges(before, project)).toEqual([]);
    let decided = 0;
    const socketPath = join(mkdtempSync(join(tmpdir(), 'holdfast-broker-')), 'gate.sock');
    brokers.push(
      await startGateBroker({
        socketPath,
        project,
        judging: JUDGING,
        layoutChanges: () => layoutChanges(before, project),
        decide: () => {
          decided += 1;
          return Promise.resolve({ stdout: '', stderr: '', exitCode: 0 });
        },
      }),
    );
    expect((await askBroker(socketPath, { argv: ['codex'], cwd: project, stdin: '{}' }, 30_000)).exitCode).toBe(0);
    mkdirSync(join(project, '.git', 'objects', 'info'), { recursive: true });
    writeFileSync(join(project, '.git', 'objects', 'info', 'alternates'), '/elsewhere/objects\n');
    writeFileSync(join(project, '.git', 'info', 'attributes'), '* working-tree-encoding=UTF-16LE\n');
    expect(layoutChanges(before, project)).toEqual(['info', 'objects/info/alternates']);
    const refused = await askBroker(socketPath, { argv: ['codex'], cwd: project, stdin: '{}' }, 30_000);
    expect(refused).toMatchObject({
      exitCode: 2,
      stderr: expect.stringMatching(/GATE TAMPER: the repository's layout changed since holdfast exec started \(info, objects\/info\/alternates/),
    });
    expect(decided).toBe(1);
    // A commondir moves where config, hooks and objects are read from: every one of them differs then.
    writeFileSync(join(project, '.git', 'commondir'), '/elsewhere\n');
    expect(layoutChanges(before, project)).toEqual(expect.arrayContaining(['commondir', 'config', 'hooks']));
  });
});
