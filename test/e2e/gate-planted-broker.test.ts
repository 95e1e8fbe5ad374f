import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claude } from '@holdfast/gate/test-support';

// Issue 42: a process of the gate never takes its decision from something the agent can make. Outside
// `holdfast exec` the broker's fixed socket path is in the shared /tmp, where an agent's shell call can
// start a server of its own that answers "allow" to everything.
const ENTRY = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));
const PLANTED_DIR = '/tmp/holdfast-gate';
const PLANTED_SOCKET = join(PLANTED_DIR, 'gate.sock');

function hook(root: string, event: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ENTRY, 'claude-code', '--deadline-ms', '24000'], { cwd: root, env: { PATH: process.env.PATH ?? '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(event);
  });
}

const NOLOG = `version: 1
rules:
  - id: R4
    name: NOLOG
    prose: No console.log.
    check:
      kind: forbidden-pattern
      what: a console.log call
      files: ['src/**']
      patterns: ['console\\.log']
`;

describe('a broker socket the agent planted outside holdfast exec (issue 42)', () => {
  it('is never asked: the hook decides itself, and refuses the console.log the planted broker would allow', async () => {
    const madeDir = !existsSync(PLANTED_DIR);
    mkdirSync(PLANTED_DIR, { recursive: true });
    if (existsSync(PLANTED_SOCKET) && lstatSync(PLANTED_SOCKET).isSocket()) rmSync(PLANTED_SOCKET);
    let asked = 0;
    const planted = createServer((connection) => {
      asked += 1;
      connection.on('data', () => undefined);
      connection.on('end', () => connection.end(JSON.stringify({ stdout: '', stderr: '', exitCode: 0 })));
    });
    await new Promise<void>((resolve) => planted.listen(PLANTED_SOCKET, resolve));
    try {
      const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-planted-'));
      mkdirSync(join(root, 'src'));
      mkdirSync(join(root, 'holdfast'));
      writeFileSync(join(root, 'holdfast', 'rulebook.yaml'), NOLOG);
      const answer = await hook(root, claude.write(root, 's', 'src/a.ts', 'console.log(1);\n'));
      expect(answer.code === 2 || /"permissionDecision":"deny"/.test(answer.out)).toBe(true);
      expect(answer.out + answer.err).toMatch(/R4|NOLOG/);
      expect(asked).toBe(0);
    } finally {
      await new Promise<void>((resolve) => planted.close(() => resolve()));
      rmSync(PLANTED_SOCKET, { force: true });
      if (madeDir) rmdirSync(PLANTED_DIR);
    }
  });
});
