import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ArmResult } from '@holdfast/core/contract';
import { errorArm } from '@holdfast/lab/experiment';
import { createProgress } from './progress.js';

function stream(isTTY: boolean): PassThrough & { isTTY: boolean; text(): string } {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk) => (text += String(chunk)));
  return Object.assign(output, { isTTY, text: () => text });
}

const results = (): { told: ArmResult; held: ArmResult } => ({
  told: errorArm('told', { code: 'E_PROVIDER', message: 'down' }),
  held: errorArm('held', { code: 'E_PROVIDER', message: 'down' }),
});

describe('createProgress', () => {
  it('names the worker of each round of a queued run in plain lines', () => {
    const output = stream(false);
    const progress = createProgress(output, 2);
    progress.roundEnded('t/task/0', results(), 'w1');
    progress.roundEnded('t/task/1', results());
    expect(output.text()).toBe('round 1/2 t/task/0 on w1: told error, held error\nround 2/2 t/task/1: told error, held error\n');
  });

  it('counts rounds per worker on the bar at a terminal', () => {
    const output = stream(true);
    const progress = createProgress(output, 3);
    progress.roundEnded('a', results(), 'w2');
    progress.roundEnded('b', results(), 'w1');
    progress.roundEnded('c', results(), 'w2');
    // eslint-disable-next-line no-control-regex -- the line must end with the terminal's erase-to-end-of-line escape
    expect(output.text().split('\r').at(-1)).toMatch(/3\/3 rounds .* · w2 2 w1 1\u001b\[K$/);
  });
});
