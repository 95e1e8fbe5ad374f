import { InputError } from '@holdfast/core/contract';

/** Where the queue's Redis is: what BullMQ and ioredis need, and a label safe to print (no password). */
export interface QueueConnection {
  readonly host: string;
  readonly port: number;
  readonly db?: number;
  readonly username?: string;
  readonly password?: string;
  /** `redis://host:port/db`, without credentials: for messages and logs. */
  readonly label: string;
}

/** Reads `--queue redis://[user:password@]HOST:PORT[/DB]`; anything else is refused naming the flag. */
export function parseQueueUrl(text: string, flag = '--queue'): QueueConnection {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new InputError('E_QUEUE_URL', `${flag} must be a redis:// address such as redis://127.0.0.1:6379, got "${text}".`, { cause: error });
  }
  if (url.protocol !== 'redis:')
    throw new InputError('E_QUEUE_URL', `${flag} must be a redis:// address (TLS is not supported yet), got "${url.protocol}//…".`);
  if (url.hostname === '') throw new InputError('E_QUEUE_URL', `${flag} needs a host, e.g. redis://127.0.0.1:6379.`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  const db = path === '' ? undefined : Number(path);
  if (db !== undefined && (!Number.isInteger(db) || db < 0))
    throw new InputError('E_QUEUE_URL', `${flag}: the database after the port must be a number, e.g. redis://127.0.0.1:6379/0, got "/${path}".`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    port,
    ...(db !== undefined ? { db } : {}),
    ...(url.username !== '' ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password !== '' ? { password: decodeURIComponent(url.password) } : {}),
    label: `redis://${url.host}${db !== undefined ? `/${db}` : ''}`,
  };
}

/** Connection options for BullMQ: blocking workers need `maxRetriesPerRequest: null`. */
export function redisOptions(connection: QueueConnection): {
  host: string;
  port: number;
  db?: number;
  username?: string;
  password?: string;
  maxRetriesPerRequest: null;
} {
  return {
    host: connection.host,
    port: connection.port,
    ...(connection.db !== undefined ? { db: connection.db } : {}),
    ...(connection.username !== undefined ? { username: connection.username } : {}),
    ...(connection.password !== undefined ? { password: connection.password } : {}),
    maxRetriesPerRequest: null,
  };
}
