import { lstatSync, readFileSync } from 'node:fs';
import { EXEC_GATE_DIR, EXEC_GATE_SOCKET } from './containment.js';
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
 * sandbox, so the broker outside (which can write it) decides. Only at the fixed socket path, and only
 * when that folder is a read-only mount in this process's mount namespace: that is what exec makes and
 * what the agent cannot make or replace (the kernel says so, in /proc/self/mountinfo; neither a file the
 * agent writes nor the environment does). Outside exec a socket at that path is anyone's: the agent could
 * start a server there that answers "allow", so it is never asked. The mount decides, not the environment:
 * a confined program that clears the exec marker before it runs git still reaches the broker.
 */
export function brokerSocket(mountInfo: () => string = readMountInfo): string | undefined {
  try {
    if (!lstatSync(EXEC_GATE_SOCKET).isSocket()) return undefined;
  } catch {
    return undefined;
  }
  return isReadOnlyMount(mountInfo(), EXEC_GATE_DIR) ? EXEC_GATE_SOCKET : undefined;
}

function readMountInfo(): string {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return '';
  }
}

/** Whether `/proc/self/mountinfo` (proc(5)) names `path` as a mount point whose own mount options say `ro`. */
export function isReadOnlyMount(mountInfo: string, path: string): boolean {
  // The last line for a mount point is the one on top (a later mount hides the earlier ones).
  let readOnly = false;
  for (const line of mountInfo.split('\n')) {
    const fields = line.split(' ');
    // id, parent, major:minor, root, mount point (octal escapes for space and the like), mount options, ...
    if (fields.length < 6) continue;
    const point = (fields[4] ?? '').replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    if (point === path) readOnly = (fields[5] ?? '').split(',').includes('ro');
  }
  return readOnly;
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
