import { createRequire } from 'node:module';

type Unbash = typeof import('unbash');

let loaded: Unbash | undefined;

/** The bash parser, loaded on first use: a hook call that runs no shell command (a Write, an Edit) never pays for it. */
export function unbash(): Unbash {
  loaded ??= createRequire(import.meta.url)('unbash') as Unbash;
  return loaded;
}
