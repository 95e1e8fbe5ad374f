import { describe, expect, it } from 'vitest';
import { runHarnessProcess } from './process.js';

const env = { PATH: process.env.PATH ?? '' };
const common = { env, cwd: process.cwd(), timeoutMs: 600_000, outputCapBytes: 1024 * 1024 };

describe('runHarnessProcess', () => {
  it('passes stdin, keeps stdout and stderr, and reports the exit code', async () => {
    const script = 'let t="";process.stdin.on("data",(d)=>t+=d).on("end",()=>{process.stdout.write("got "+t);process.stderr.write("err");process.exit(4)})';
    const exit = await runHarnessProcess({ ...common, file: process.execPath, args: ['-e', script], stdin: 'ticket' });
    expect(exit).toMatchObject({ exitCode: 4, timedOut: false, stdout: 'got ticket', stdoutTruncated: false });
    expect(exit.stderr.text).toBe('err');
    expect(exit.stoppedBecause).toBeUndefined();
  });

  it('stops the whole process tree when a line says so (the turn cap), with the reason', async () => {
    // A child that prints forever, and a grandchild that would outlive it if only the child were killed.
    const script =
      'require("child_process").spawn(process.execPath,["-e","setInterval(()=>{},1000)"],{stdio:"ignore"});let n=0;setInterval(()=>console.log(JSON.stringify({turn:++n})),5)';
    const seen: string[] = [];
    const exit = await runHarnessProcess({
      ...common,
      file: process.execPath,
      args: ['-e', script],
      onLine: (line) => {
        seen.push(line);
        return seen.length >= 3 ? 'it went past the turn cap of 2' : undefined;
      },
    });
    expect(exit.stoppedBecause).toBe('it went past the turn cap of 2');
    expect(exit.signal).toBe('SIGKILL');
    expect(seen.slice(0, 3)).toEqual(['{"turn":1}', '{"turn":2}', '{"turn":3}']);
  });

  it('a cancelled run stops the harness; a missing program is a spawn error', async () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled = await runHarnessProcess({ ...common, file: process.execPath, args: ['-e', 'setInterval(()=>{},1000)'], signal: controller.signal });
    expect(cancelled.stoppedBecause).toBe('the run was cancelled');
    const missing = await runHarnessProcess({ ...common, file: '/nonexistent/agent', args: [] });
    expect(missing.spawnError).toMatch(/ENOENT/);
  });
});
