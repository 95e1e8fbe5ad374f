import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

describe('holdfast worker', () => {
  it('explains itself', async () => {
    const io = memoryIo();
    expect(await main(['worker', '--help'], io)).toBe(0);
    expect(io.out()).toContain('--stall-timeout-ms');
    expect(io.out()).toContain('--unsafe-no-isolation');
  });

  it.each([
    [[], /--queue redis:\/\/HOST:PORT is required/],
    [['--queue', 'localhost:6379'], /--queue must be a redis:\/\/ address/],
    [['--queue', 'redis://127.0.0.1:1', '--targets', 'a', '--replies', 'r.json'], /only one of --targets, --replies and --replay/],
    [['--queue', 'redis://127.0.0.1:1', '--reply-delay-ms', '100'], /slows scripted replies only/],
    [['--queue', 'redis://127.0.0.1:1', '--stall-timeout-ms', '5'], /--stall-timeout-ms must be a whole number from 200/],
  ])('refuses %j before it connects, saying what to do', async (args, message) => {
    const io = memoryIo();
    expect(await main(['worker', ...args], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});

describe('holdfast run --queue', () => {
  it.each([
    [['--target-concurrency', '2'], /need --queue/],
    [['--queue', 'redis://127.0.0.1:1', '--target-rate', 'fast'], /--target-rate must be ROUNDS\/SECONDS, e\.g\. 10\/60/],
    [['--queue', 'redis://127.0.0.1:1', '--target-rate', '0/60'], /--target-rate must be ROUNDS\/SECONDS/],
  ])('refuses %j, saying what to do', async (args, message) => {
    const io = memoryIo();
    expect(await main(['run', '--replies', 'runs/demo/replies.json', ...args], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});
