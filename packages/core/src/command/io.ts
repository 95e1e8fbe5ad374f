/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env };
}

/**
 * A reader that stops early (`holdfast report … | head`) closes the pipe; the next write fails with
 * EPIPE. Nothing more can be said to that reader, so the command ends quietly instead of crashing.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.EventEmitter, exit: (code: number) => void): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      exit(0);
      return;
    }
    throw error;
  });
}

/** Exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  /** The thing judged failed: a violation, a failing fixture, a pass→fail flip. */
  failed: 1,
  /** Bad input: a flag, a file, a rulebook. The message says what to fix. */
  usage: 2,
  /** holdfast itself broke. */
  internal: 3,
  /** The machine refused: the disk is full or a file is not writable. The message names the file and what to do. */
  environment: 4,
  /** The run was interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`);
}

/**
 * `holdfast <command>: message`, unless the message already names its command (messages from
 * parseCommandArgs and subcommands such as `holdfast pressure lint:` carry their own prefix).
 */
export function withCommandPrefix(command: string, message: string): string {
  return message.startsWith('holdfast ') ? message : `holdfast ${command}: ${message}`;
}
