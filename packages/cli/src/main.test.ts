import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { memoryIo } from '@holdfast/core/test-support';

describe('holdfast main', () => {
  it('prints the package version', async () => {
    const io = memoryIo();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('refuses an unknown command with exit 2 and lists the real ones', async () => {
    const io = memoryIo();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.err()).toContain('unknown command "frobnicate"');
    expect(io.err()).toContain('check');
  });

  it('prints usage with --help', async () => {
    const io = memoryIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out()).toContain('Usage: holdfast <command>');
  });
});

describe('bad input', () => {
  it.each([
    [['run', '--bogus'], 'holdfast run: '],
    [['report', '--bogus'], 'holdfast report: '],
    [['rescore', '--bogus'], 'holdfast rescore: '],
    [['pressure', 'lint', '--bogus'], 'holdfast pressure lint: '],
  ])('%j names the command once and exits 2', async (argv, prefix) => {
    const io = memoryIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.err().startsWith(prefix)).toBe(true);
    expect(io.err().split(prefix)).toHaveLength(2);
  });

  it('prefixes a message that does not name its command', async () => {
    const io = memoryIo();
    expect(await main(['report'], io)).toBe(2);
    expect(io.err()).toMatch(/^holdfast report: give exactly one run file/);
  });
});
