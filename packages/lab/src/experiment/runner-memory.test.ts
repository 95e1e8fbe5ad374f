import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * Runs in a node process of its own with --expose-gc, on the built package (the global setup
 * builds it first): the first round's arm results are watched by WeakRefs, and once later rounds
 * ran the collector must have been able to take them. A runner that keeps every finished round
 * (for the failed-target count at the end) grows with the number of calls.
 */
const SCRIPT = `
const { runExperiment } = await import('@holdfast/lab/experiment');
const { loadRulebook } = await import('@holdfast/core/rules');
const rulebook = await loadRulebook();
const task = { id: 't', title: 'T', ticket: 'Do it.', tempts: [], files: { 'package.json': '{}\\n' } };
const refs = [];
let answered = 0;
const outcome = await runExperiment({
  runId: 'memory',
  config: { targets: ['fake'], tasks: ['t'], reps: 6, concurrency: 1, approve: 'auto', approvalTimeoutMs: 90000, temperature: 0, sandbox: false },
  rulebook,
  tasks: [task],
  targets: [{ info: { id: 'fake', provider: 'replay' }, model: { generate: async () => ({ text: JSON.stringify({ reasoning: 'x'.repeat(1000 + answered++), actions: [] }), usage: {}, latencyMs: 0, attempts: 1 }) } }],
  emit: async (event) => {
    if (event.type === 'arm-end' && event.rep === 0) refs.push(new WeakRef(event.result));
    if (event.type === 'round-start' && event.rep === 5) {
      // Out of the current job first: a WeakRef's target is kept alive until the job that made it ends.
      await new Promise((resolve) => setImmediate(resolve));
      globalThis.gc();
      process.stdout.write(JSON.stringify({ alive: refs.filter((ref) => ref.deref() !== undefined).length, watched: refs.length }));
    }
    return { ...event, seq: 0 };
  },
});
if (outcome.status !== 'completed') throw new Error(outcome.status);
`;

/**
 * Without --expose-gc: the only full collection a short run of a small heap sees is the one the
 * runner asks for once its checks have parsed RUN_COLLECT_EVERY of text into syntax trees (whose
 * native memory V8 cannot see). Each round writes a file of about 70,000 characters that names console, so
 * R4 parses it; the first round's arm results (old by then) are gone once that collection ran.
 */
const PARSING_SCRIPT = `
const { runExperiment } = await import('@holdfast/lab/experiment');
const { loadRulebook } = await import('@holdfast/core/rules');
const rulebook = await loadRulebook();
const task = { id: 't', title: 'T', ticket: 'Do it.', tempts: [], files: { 'package.json': '{}\\n' } };
const content = 'console.info("' + 'x'.repeat(70000) + '");\\n';
const refs = [];
const outcome = await runExperiment({
  runId: 'memory',
  config: { targets: ['fake'], tasks: ['t'], reps: 3, concurrency: 1, approve: 'auto', approvalTimeoutMs: 90000, temperature: 0, sandbox: false },
  rulebook,
  tasks: [task],
  targets: [{ info: { id: 'fake', provider: 'replay' }, model: { generate: async () => ({ text: JSON.stringify({ actions: [{ type: 'write', path: 'src/big.ts', content }] }), usage: {}, latencyMs: 0, attempts: 1 }) } }],
  emit: async (event) => {
    if (event.type === 'arm-end' && event.rep === 0) refs.push(new WeakRef(event.result));
    if (event.type === 'round-start' && event.rep === 2) {
      await new Promise((resolve) => setImmediate(resolve));
      process.stdout.write(JSON.stringify({ exposed: typeof globalThis.gc, alive: refs.filter((ref) => ref.deref() !== undefined).length, watched: refs.length }));
    }
    return { ...event, seq: 0 };
  },
});
if (outcome.status !== 'completed') throw new Error(outcome.status);
`;

describe('runExperiment memory', () => {
  it('lets a finished round go: its arm results can be collected while later rounds run', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({ alive: 0, watched: 2 });
  });

  it('collects in full once its checks have parsed enough text into native syntax trees, without --expose-gc', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', PARSING_SCRIPT], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({ exposed: 'undefined', alive: 0, watched: 2 });
  });
});
