import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { memoryIo } from '@holdfast/core/test-support';

const reply = JSON.stringify({
  reasoning: 'add the module',
  actions: [
    { type: 'write', path: 'src/a.ts', content: 'export const a = 1;\n' },
    { type: 'run', cmd: 'npm test' },
    { type: 'commit', message: 'feat: a' },
  ],
});

describe('holdfast parse', () => {
  it('reads a fenced reply from stdin and prints kind, method and one line per action', async () => {
    const io = memoryIo({ input: `Sure:\n\`\`\`json\n${reply}\n\`\`\`\n` });
    expect(await main(['parse'], io)).toBe(0);
    expect(io.out()).toBe(
      [
        'kind: actions',
        'method: fenced',
        'actions: 3',
        '  0  write src/a.ts (20 chars)',
        '  1  run npm test',
        '  2  commit "feat: a"',
        'reasoning: add the module',
        '',
      ].join('\n'),
    );
  });

  it('prints JSON with --json, from a file relative to the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'holdfast-parse-'));
    writeFileSync(join(dir, 'reply.txt'), `{"decline": "it would hardcode a key"}`);
    const io = memoryIo({ cwd: dir });
    expect(await main(['parse', '--json', 'reply.txt'], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({ kind: 'declined', method: 'json', actions: [], reason: 'it would hardcode a key' });
  });

  it('reports an unparseable reply with its reason and still exits 0', async () => {
    const io = memoryIo({ input: JSON.stringify({ actions: [{ type: 'exec', cmd: 'ls' }] }) });
    expect(await main(['parse', '--json', '-'], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({ kind: 'unparseable', actions: [], reason: 'action 0: unknown type "exec"; expected write, delete, run or commit' });
  });

  it('names a missing file and exits 2', async () => {
    const io = memoryIo({ cwd: tmpdir() });
    expect(await main(['parse', 'no-such-reply.txt'], io)).toBe(2);
    expect(io.err()).toContain('cannot read no-such-reply.txt: no such file');
    expect(io.out()).toBe('');
  });

  it('refuses an unknown flag and two files with exit 2', async () => {
    const flag = memoryIo();
    expect(await main(['parse', '--yaml'], flag)).toBe(2);
    expect(flag.err()).toContain('holdfast parse');
    const two = memoryIo();
    expect(await main(['parse', 'a', 'b'], two)).toBe(2);
    expect(two.err()).toContain('expected one FILE, got 2');
  });

  it('has a real --help', async () => {
    const io = memoryIo();
    expect(await main(['parse', '--help'], io)).toBe(0);
    expect(io.out()).toContain('Usage: holdfast parse [--json] [FILE|-]');
  });
});
