import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { memoryIo } from '../test-support/memory-io.js';

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
