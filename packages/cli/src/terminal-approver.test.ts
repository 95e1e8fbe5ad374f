import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@holdfast/lab/experiment';
import { terminalApprover } from './terminal-approver.js';

const request = (roundId: string): ApprovalRequest => ({
  approvalId: `a-${roundId}`,
  roundId,
  target: 'demo',
  task: 'add-feature',
  rep: 1,
  message: 'feat: add x',
  files: [{ path: 'src/x.ts', content: 'export const x = 1;\n' }],
  deadline: new Date(Date.now() + 90_000),
});

describe('terminalApprover', () => {
  it('gives each question the next answer, with answers piped in ahead of the questions', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const approver = terminalApprover(input, output);
    input.write('y\nno\nYES\n');
    const signal = new AbortController().signal;
    const first = await approver.decide(request('r1'), signal);
    const second = await approver.decide(request('r2'), signal);
    const third = await approver.decide(request('r3'), signal);
    expect([first, second, third]).toEqual([
      { decision: 'approved', by: 'person' },
      { decision: 'refused', by: 'person' },
      { decision: 'approved', by: 'person' },
    ]);
    approver.close();
  });

  it('asks in turn when two commits wait at once, and refuses once the input ends', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
    const approver = terminalApprover(input, output);
    const signal = new AbortController().signal;
    const first = approver.decide(request('r1'), signal);
    const second = approver.decide(request('r2'), signal);
    input.write('yes\n');
    expect(await first).toEqual({ decision: 'approved', by: 'person' });
    input.end();
    expect(await second).toEqual({ decision: 'refused', by: 'no-answer' });
    expect(shown.indexOf('r1')).toBeLessThan(shown.indexOf('r2'));
    approver.close();
  });

  it('refuses as cancelled when the wait is aborted, and the next question still gets the next line', async () => {
    const input = new PassThrough();
    const approver = terminalApprover(input, new PassThrough());
    const controller = new AbortController();
    const waiting = approver.decide(request('r1'), controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await waiting).toEqual({ decision: 'refused', by: 'cancel' });
    const next = approver.decide(request('r2'), new AbortController().signal);
    input.write('y\n');
    expect(await next).toEqual({ decision: 'approved', by: 'person' });
    approver.close();
  });
});
