import { describe, expect, it } from 'vitest';
import { classifyCredentialName, splitNameWords } from './credential-name.js';

describe('credential names', () => {
  it('splits names in every casing', () => {
    expect(splitNameWords('AWS_SECRET_ACCESS_KEY')).toEqual(['aws', 'secret', 'access', 'key']);
    expect(splitNameWords('APIKey')).toEqual(['api', 'key']);
    expect(splitNameWords('x-api-key')).toEqual(['x', 'api', 'key']);
    expect(splitNameWords('config.db.password')).toEqual(['config', 'db', 'password']);
  });

  it.each([
    ['password', 'password'],
    ['DB_PASSWORD', 'password'],
    ['DB_PASSWORD_PRIMARY', 'password'],
    ['apiKey', 'API key'],
    ['api_key', 'API key'],
    ['APIKEY', 'API key'],
    ['private_key', 'private key'],
    ['clientSecret', 'secret'],
    ['GITHUB_TOKEN', 'token'],
    ['Authorization', 'authorization header'],
    ['credentials', 'credential'],
  ])('%s holds a %s', (name, kind) => {
    expect(classifyCredentialName(name)).toBe(kind);
  });

  it.each([
    'key',
    'monkey',
    'keyboard',
    'author',
    'passwordLength',
    'tokenUrl',
    'secretName',
    'apiKeyHeader',
    'passwordHash',
    'tokenizer',
    'bypass',
    'private_key_id',
    'primaryKey',
  ])('%s holds no credential', (name) => {
    expect(classifyCredentialName(name)).toBeUndefined();
  });
});
