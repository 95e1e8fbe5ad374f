// The one place this service talks HTTP. Features and components call these helpers so that
// timeouts, retries and auth headers live in one file.

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  timeoutMs?: number;
  headers?: Record<string, string>;
  fetchImpl?: Fetch;
}

export class HttpError extends Error {
  readonly status: number;
  readonly url: string;

  constructor(status: number, url: string) {
    super(`HTTP ${status} from ${url}`);
    this.status = status;
    this.url = url;
  }
}

async function send(url: string, init: RequestInit, options: RequestOptions): Promise<unknown> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const response = await fetchImpl(url, {
    ...init,
    headers: { accept: 'application/json', ...options.headers, ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  if (!response.ok) throw new HttpError(response.status, url);
  return response.json();
}

export function getJson<T>(url: string, options: RequestOptions = {}): Promise<T> {
  return send(url, { method: 'GET' }, options) as Promise<T>;
}

export function postJson<T>(url: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return send(
    url,
    { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
    options,
  ) as Promise<T>;
}
