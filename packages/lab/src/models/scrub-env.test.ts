import { describe, expect, it } from 'vitest';
import { looksSecret, scrubEnv } from './scrub-env.js';

describe('scrubEnv', () => {
  it('keeps the base variables and drops everything else', () => {
    expect(scrubEnv({ PATH: '/bin', HOME: '/h', LANG: 'C', LC_ALL: 'C', XDG_CONFIG_HOME: '/c', EDITOR: 'vim', NODE_OPTIONS: '--inspect' })).toEqual({
      PATH: '/bin',
      HOME: '/h',
      LANG: 'C',
      LC_ALL: 'C',
      XDG_CONFIG_HOME: '/c',
    });
  });

  it('drops secret-looking names even under a base prefix', () => {
    expect(scrubEnv({ XDG_SESSION_ID: '3', LC_TOKEN: 'x', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it('passes an allowlisted variable, secret-looking or not, and only by its exact name', () => {
    expect(scrubEnv({ ANTHROPIC_API_KEY: 'k', anthropic_api_key: 'other', CLAUDE_CONFIG_DIR: '/d' }, ['ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'])).toEqual({
      ANTHROPIC_API_KEY: 'k',
      CLAUDE_CONFIG_DIR: '/d',
    });
  });

  it('recognises credential names', () => {
    for (const name of ['OPENAI_API_KEY', 'GH_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'PGPASSWORD', 'NPM_AUTH', 'SSH_PRIVATE', 'SESSION_COOKIE']) {
      expect(looksSecret(name), name).toBe(true);
    }
    for (const name of ['PATH', 'HOME', 'LANG', 'TERM']) expect(looksSecret(name), name).toBe(false);
  });
});
