import { createRequire } from 'node:module';

/**
 * Node's child_process and crypto, loaded on first use. A hook is a new process on every tool call,
 * and loading these two costs more than many decisions do: a Write that needs no git and no hash
 * never pays for them. (A static import would load them when the hook bundle starts.)
 */
let require: NodeJS.Require | undefined;

/** The require function itself is made on first use too: making it (a file URL, a resolver) costs every hook process. */
function load(name: string): unknown {
  require ??= createRequire(import.meta.url);
  return require(name);
}

export function childProcess(): typeof import('node:child_process') {
  return load('node:child_process') as typeof import('node:child_process');
}

export function nodeCrypto(): typeof import('node:crypto') {
  return load('node:crypto') as typeof import('node:crypto');
}

/** Only for the home folder, when a shell command names it. */
export function nodeOs(): typeof import('node:os') {
  return load('node:os') as typeof import('node:os');
}

/** Only under `holdfast exec`, where the hook asks the gate broker over a socket. */
export function nodeNet(): typeof import('node:net') {
  return load('node:net') as typeof import('node:net');
}
