import { describe, expect, it } from 'vitest';
import { parseQueueUrl, redisOptions } from './queue-url.js';

describe('parseQueueUrl', () => {
  it('reads host, port, database and credentials, and prints no password', () => {
    const connection = parseQueueUrl('redis://worker:s3cret%21@queue.internal:6380/2');
    expect(connection).toMatchObject({ host: 'queue.internal', port: 6380, db: 2, username: 'worker', password: 's3cret!' });
    expect(connection.label).toBe('redis://queue.internal:6380/2');
    expect(redisOptions(connection)).toEqual({
      host: 'queue.internal',
      port: 6380,
      db: 2,
      username: 'worker',
      password: 's3cret!',
      maxRetriesPerRequest: null,
    });
  });

  it('defaults the port to 6379', () => {
    expect(parseQueueUrl('redis://127.0.0.1')).toMatchObject({ host: '127.0.0.1', port: 6379, label: 'redis://127.0.0.1' });
  });

  it('refuses what is not a redis:// address, naming the flag', () => {
    expect(() => parseQueueUrl('127.0.0.1:6379')).toThrow(/--queue must be a redis:\/\/ address/);
    expect(() => parseQueueUrl('rediss://example.test:6379')).toThrow(/TLS is not supported/);
    expect(() => parseQueueUrl('redis://127.0.0.1:6379/zero')).toThrow(/database after the port must be a number/);
  });
});
