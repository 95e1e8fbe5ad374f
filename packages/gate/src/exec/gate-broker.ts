import { realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, isAbsolute } from 'node:path';
import type { Server } from 'node:net';
import { inside } from './containment.js';
import type { BrokerRequest } from './gate-broker-client.js';
import type { HookAnswer } from '../decide/index.js';

/** A request larger than this is refused unread: a hook event is a tool call, not a repository. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export interface GateBrokerOptions {
  readonly socketPath: string;
  /** The project exec confines; a request for a folder outside it is refused. */
  readonly project: string;
  /** Decides one hook event, as the hook process would (runHookProcess), with the broker's write access. */
  readonly decide: (request: BrokerRequest) => Promise<HookAnswer>;
}

export interface GateBroker {
  close(): Promise<void>;
}

function refusal(message: string): HookAnswer {
  return { stdout: '', stderr: `holdfast gate: ${message}, so this call is refused.\n`, exitCode: 2 };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The request, if it is one the broker answers: well-formed, and about a folder inside the project. */
export function readBrokerRequest(text: string, project: string): BrokerRequest | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'the hook sent a request the broker could not read';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'the hook sent a request the broker could not read';
  const record = parsed as Record<string, unknown>;
  const { argv, cwd, stdin, projectDir, gitIndexFile } = record;
  if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string') || typeof cwd !== 'string' || typeof stdin !== 'string') {
    return 'the hook sent a request the broker could not read';
  }
  const root = realOrSelf(project);
  if (!inside(realOrSelf(cwd), root)) return `the hook ran in ${cwd}, outside the project holdfast exec confines (${root})`;
  if (projectDir !== undefined && (typeof projectDir !== 'string' || !inside(realOrSelf(projectDir), root))) {
    return 'the hook named a project folder outside the one holdfast exec confines';
  }
  if (gitIndexFile !== undefined && typeof gitIndexFile !== 'string') return 'the hook sent a request the broker could not read';
  // The index of a repository inside the project is read; one elsewhere (a linked worktree's git
  // folder outside it) is not, and git's default index is judged, as before the hook named one.
  const index = typeof gitIndexFile === 'string' && isAbsolute(gitIndexFile) && inside(realOrSelf(dirname(gitIndexFile)), root) ? { gitIndexFile } : {};
  return { argv: argv as string[], cwd, stdin, ...(typeof projectDir === 'string' ? { projectDir } : {}), ...index };
}

/**
 * The gate broker of `holdfast exec`: outside the sandbox, where `.holdfast/` is writable, it
 * decides every hook event the confined agent's hooks send it. Decisions run one at a time, as
 * separate hook processes would never share state mid-decision.
 */
export function startGateBroker(options: GateBrokerOptions): Promise<GateBroker> {
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer({ allowHalfOpen: true }, (connection) => {
    const chunks: Buffer[] = [];
    let size = 0;
    connection.on('error', () => connection.destroy());
    connection.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        connection.end(JSON.stringify(refusal('the hook event is too large for the gate broker')));
        return;
      }
      chunks.push(chunk);
    });
    connection.on('end', () => {
      if (size > MAX_REQUEST_BYTES) return;
      const request = readBrokerRequest(Buffer.concat(chunks).toString('utf8'), options.project);
      const decided: Promise<HookAnswer> =
        typeof request === 'string'
          ? Promise.resolve(refusal(request))
          : (queue = queue.then(
              () => options.decide(request),
              () => options.decide(request),
            )).then(
              (answer) => answer as HookAnswer,
              (error: unknown) => refusal(`the gate broker failed (${error instanceof Error ? error.message : String(error)})`),
            );
      void decided.then((answer) => {
        if (!connection.destroyed) connection.end(JSON.stringify(answer));
      });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => {
      server.off('error', reject);
      resolve({ close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
