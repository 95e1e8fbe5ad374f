import { describe, expect, it } from 'vitest';
import { roundJobId, roundQueueName, runsCommands } from './round-queues.js';

describe('round queues', () => {
  it('gives each target a plain and an isolated queue, with no colon BullMQ would refuse', () => {
    expect(roundQueueName('ollama-llama3:8b', false)).toBe('rounds.ollama-llama3%3A8b');
    expect(roundQueueName('ollama-llama3:8b', true)).toBe('rounds.ollama-llama3%3A8b.isolated');
    expect(roundQueueName('a%3Ab', false)).not.toBe(roundQueueName('a:b', false));
  });

  it('makes job ids from the run and the round, so two runs never share a job', () => {
    expect(roundJobId('run-1', 'm:7b/task/0')).toBe('run-1/m%3A7b/task/0');
    expect(roundJobId('run-1', 'm/task/0')).not.toBe(roundJobId('run-2', 'm/task/0'));
  });

  it('sends rounds that run commands to isolated queues only', () => {
    expect(runsCommands({ sandbox: false })).toBe(false);
    expect(runsCommands({ sandbox: true })).toBe(true);
    expect(runsCommands({ mode: 'loop', sandbox: false })).toBe(true);
    expect(runsCommands({ mode: 'agent', sandbox: false })).toBe(true);
  });
});
