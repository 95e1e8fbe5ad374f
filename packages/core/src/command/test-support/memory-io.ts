import { PassThrough } from 'node:stream';
import type { CliIo } from '../io.js';

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
}

/** A CliIo whose streams are in memory: stdin holds `input`, stdout and stderr are collected. */
export function memoryIo(options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): MemoryIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += String(chunk)));
  stderr.on('data', (chunk) => (err += String(chunk)));
  stdin.end(options.input ?? '');
  return {
    stdout,
    stderr,
    stdin,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
    out: () => out,
    err: () => err,
  };
}
