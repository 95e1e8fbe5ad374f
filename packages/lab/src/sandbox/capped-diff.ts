import { spawn } from 'node:child_process';
import type { CappedText } from '@holdfast/core/contract';
import { GIT_HARDENING, hermeticGitEnv } from './git.js';
import type { GitLocation } from './git.js';
import { SandboxError } from './errors.js';

/** How much of one file's diff is kept: enough to read the change, never a whole 300 MB file. */
const DIFF_PER_FILE_CAP_BYTES = 64 * 1024;

const FILE_HEADER = Buffer.from('diff --git ');

/**
 * `git diff` read as it streams, each file's part kept up to `perFileCap` bytes and the whole up to
 * `capBytes`, with the full size counted. However much the model wrote, the diff costs its caps and
 * never fails on size, so the arm's evidence does not depend on it.
 */
export function cappedDiff(
  location: GitLocation,
  args: readonly string[],
  extraEnv: Record<string, string>,
  capBytes: number,
  perFileCap = DIFF_PER_FILE_CAP_BYTES,
): Promise<CappedText> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_HARDENING, `--git-dir=${location.gitDir}`, `--work-tree=${location.workTree}`, ...args], {
      cwd: location.workTree,
      env: hermeticGitEnv(extraEnv),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let total = 0;
    let inFile = 0;
    let pending = Buffer.alloc(0);
    let stderr = '';
    const keep = (line: Buffer) => {
      if (line.subarray(0, FILE_HEADER.length).equals(FILE_HEADER)) inFile = 0;
      const room = Math.min(capBytes - keptBytes, perFileCap - inFile);
      inFile += line.length;
      if (room <= 0) return;
      const part = line.length <= room ? line : line.subarray(0, room);
      kept.push(part);
      keptBytes += part.length;
    };
    child.stdout.on('data', (chunk: Buffer) => {
      total += chunk.length;
      let buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let newline = buffer.indexOf(0x0a);
      while (newline >= 0) {
        keep(buffer.subarray(0, newline + 1));
        buffer = buffer.subarray(newline + 1);
        newline = buffer.indexOf(0x0a);
      }
      // A line longer than the per-file cap is counted, not kept whole.
      if (buffer.length > perFileCap) {
        inFile += buffer.length;
        buffer = Buffer.alloc(0);
      }
      pending = Buffer.from(buffer);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new SandboxError('E_SANDBOX_GIT', `git diff failed: ${stderr.trim().split('\n').slice(-3).join(' ') || `exit ${String(code)}`}`));
        return;
      }
      if (pending.length > 0) keep(pending);
      resolve({ text: Buffer.concat(kept).toString('utf8'), truncated: total > keptBytes, bytes: total });
    });
  });
}
