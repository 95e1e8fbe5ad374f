import { lstatSync } from 'node:fs';
import { EXEC_GATE_SOCKET, EXEC_MARKER } from './containment.js';
import type { HookAnswer } from '../decide/index.js';
import { nodeNet } from '../io/index.js';

/** One hook event as the hook inside the sandbox hands it to the broker outside. */
export interface BrokerRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly stdin: string;
  /** Claude Code's CLAUDE_PROJECT_DIR for this hook, if it set one. */
  readonly projectDir?: string;
  /**
   * A git hook's GIT_INDEX_FILE, made absolute: the index being committed, which for `git commit -a`
   * or `git commit FILE` is a temporary one, not .git/index.
   */
  readonly gitIndexFile?: string;
}

/**
 * Under `holdfast exec` the hook decides nothing itself: the gate's state is read-only in the
 * sandbox, so the broker outside (which can write it) decides. Only at the fixed socket path, which
 * the agent cannot replace (a read-only mount). The socket itself decides, not the environment: a
 * confined program that clears the exec marker before it runs git still reaches the broker. Without
 * the marker, a socket there that is not this user's (another user's file in a shared /tmp) is not
 * the broker; without a socket the hook decides locally as always.
 */
export function brokerSocket(env: NodeJS.ProcessEnv): string | undefined {
  let stat;
  try {
    stat = lstatSync(EXEC_GATE_SOCKET);
  } catch {
    return undefined;
  }
  if (env[EXEC_MARKER] === '1') return EXEC_GATE_SOCKET;
  return stat.isSocket() && stat.uid === process.getuid?.() ? EXEC_GATE_SOCKET : undefined;
}

function refusal(message: string): HookAnswer {
  return { stdout: '', stderr: `holdfast gate: ${message}, so this call is refused.\n`, exitCode: 2 };
}

function isAnswer(value: unknown): value is HookAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.stdout === 'string' && typeof record.stderr === 'string' && typeof record.exitCode === 'number';
}

/** Asks the broker; anything but a well-formed answer within `timeoutMs` is a refusal (exit 2 blocks in every agent). */
export function askBroker(socket: string, request: BrokerRequest, timeoutMs: number): Promise<HookAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (answer: HookAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(answer);
    };
    const connection = nodeNet().createConnection(socket);
    const timer = setTimeout(() => finish(refusal(`the gate broker did not answer within ${timeoutMs} ms`)), timeoutMs);
    connection.on('error', (error) => finish(refusal(`cannot reach the gate broker of holdfast exec (${error.message})`)));
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = undefined;
      }
      finish(isAnswer(parsed) ? parsed : refusal('the gate broker sent an answer it could not read'));
    });
    connection.end(JSON.stringify(request));
  });
}
