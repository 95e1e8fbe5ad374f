import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BodyTooLargeError } from './reply-cap.js';

/** The part of `fetch` the adapters use; global `fetch` satisfies it too. */
export type HttpFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; maxBytes?: number },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

/**
 * A request over node:http(s) with keep-alive agents. Node 20's built-in fetch costs a few
 * milliseconds of CPU per call, which dominated a run against a fast local model.
 */
export const nodeHttpFetch: HttpFetch = (url, init) => send(url, init, true);

function send(url: string, init: Parameters<HttpFetch>[1], keepAlive: boolean): ReturnType<HttpFetch> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') {
      reject(new TypeError(`unsupported protocol ${target.protocol} in ${target.origin}`));
      return;
    }
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    const request = secure ? httpsRequest : httpRequest;
    const agent = keepAlive ? (secure ? httpsAgent : httpAgent) : false;
    const outgoing = request(target, { method: init.method, headers, agent, ...(init.signal ? { signal: init.signal } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (init.maxBytes !== undefined && received > init.maxBytes) {
          // Read as it arrives and stop at the cap: a never-ending body costs the cap, not the machine.
          chunks.length = 0;
          reject(new BodyTooLargeError(init.maxBytes));
          outgoing.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('aborted', () => reject(Object.assign(new Error('the connection closed mid-response'), { code: 'ECONNRESET' })));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: response.statusCode ?? 0,
          headers: {
            get: (name) => {
              const value = response.headers[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
            },
          },
          text: async () => text,
        });
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A pooled keep-alive socket the server already closed: try once more on a fresh connection.
      if (outgoing.reusedSocket && error.code === 'ECONNRESET' && !init.signal?.aborted) {
        send(url, init, false).then(resolve, reject);
        return;
      }
      reject(error);
    });
    outgoing.end(init.body);
  });
}
