import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDotEnv } from './env-file.js';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'holdfast-env-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('loadDotEnv', () => {
  it('adds .env variables under the real environment, which always wins', async () => {
    await writeFile(join(folder, '.env'), '# keys\nOPENAI_API_KEY=from-file\nOTHER="quoted value"\n');
    const real = { OPENAI_API_KEY: 'from-shell', PATH: '/bin' };
    const env = await loadDotEnv(folder, real);
    expect(env).toEqual({ OPENAI_API_KEY: 'from-shell', OTHER: 'quoted value', PATH: '/bin' });
    expect(real).toEqual({ OPENAI_API_KEY: 'from-shell', PATH: '/bin' });
  });

  it('is the environment itself when there is no .env', async () => {
    expect(await loadDotEnv(folder, { A: '1' })).toEqual({ A: '1' });
  });
});
