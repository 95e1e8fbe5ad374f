import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { TargetInfo } from '@holdfast/core/contract';
import type { AdapterRuntime, ChatMessage, GenerateRequest, GenerateResult, ModelAdapter } from './model-adapter.js';
import { ProviderError } from './provider-error.js';
import { redact, tailSnippet } from './redact.js';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.js';
import type { RetryPolicy } from './retry.js';
import { DEFAULT_TIMEOUT_MS, withRuntime } from './runtime.js';
import { looksSecret, scrubEnv } from './scrub-env.js';

export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;
const STDERR_TAIL_BYTES = 2_048;

export interface CommandAdapterOptions {
  readonly id: string;
  /** Program and arguments, run without a shell: `['claude', '-p']`. */
  readonly command: readonly string[];
  /** A label for reports; the program decides the real model. */
  readonly model?: string | undefined;
  /** Where variables come from before scrubbing (usually process.env plus `.env`). */
  readonly env: NodeJS.ProcessEnv;
  /** Variables passed through on top of PATH, HOME, LANG and friends. */
  readonly allowEnv?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly timeoutMs?: number | undefined;
  readonly outputLimitBytes?: number | undefined;
  /** Commands are expensive and slow; by default a timeout is tried once more, nothing else is. */
  readonly retry?: Partial<RetryPolicy> | undefined;
  readonly runtime?: Partial<AdapterRuntime> | undefined;
}

/** The conversation as one text on stdin: system prompt first, then the turns. */
export function renderPrompt(messages: readonly ChatMessage[]): string {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const turns = messages
    .filter((message) => message.role !== 'system')
    .map((message) => (message.role === 'assistant' ? `Your earlier reply:\n${message.content}` : message.content));
  return [...system, ...turns].join('\n\n');
}

/** Kills the child and everything it started: it leads its own process group. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

interface RunOptions {
  readonly command: readonly string[];
  readonly input: string;
  readonly env: Record<string, string>;
  readonly cwd?: string | undefined;
  readonly timeoutMs: number;
  readonly deadline: AdapterRuntime['deadline'];
  readonly outputLimitBytes: number;
  readonly signal?: AbortSignal | undefined;
  readonly secrets: readonly string[];
}

function runOnce(options: RunOptions): Promise<string> {
  const [program, ...args] = options.command;
  const name = program ?? '';
  return new Promise<string>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ProviderError('E_PROVIDER_ABORTED', 'the call was cancelled', { retryable: false }));
      return;
    }
    const child = spawn(name, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);
    let failure: ProviderError | undefined;

    const fail = (error: ProviderError): void => {
      failure ??= error;
      killTree(child);
    };
    const stopClock = options.deadline(() => {
      fail(new ProviderError('E_PROVIDER_TIMEOUT', `\`${name}\` gave no answer within ${options.timeoutMs} ms and was killed`, { retryable: true }));
    }, options.timeoutMs);
    const onAbort = (): void => fail(new ProviderError('E_PROVIDER_ABORTED', 'the call was cancelled', { retryable: false }));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.outputLimitBytes) {
        fail(new ProviderError('E_COMMAND_OUTPUT', `\`${name}\` printed more than ${options.outputLimitBytes} bytes and was stopped`, { retryable: false }));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
    });
    // A program that never reads stdin closes it early; that is its business, not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);

    child.on('error', (error: NodeJS.ErrnoException) => {
      fail(new ProviderError('E_COMMAND_SPAWN', `could not start \`${name}\`: ${error.code ?? error.message}`, { retryable: false, cause: error }));
    });
    child.on('close', (code, signal) => {
      stopClock();
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) {
        reject(failure);
        return;
      }
      if (code === 0) {
        resolve(Buffer.concat(stdout).toString('utf8'));
        return;
      }
      const how = code === null ? `was killed by ${signal ?? 'a signal'}` : `exited with code ${code}`;
      const tail = tailSnippet(redact(tailSnippet(stderrTail.toString('utf8'), STDERR_TAIL_BYTES), options.secrets), 500);
      reject(new ProviderError('E_COMMAND_EXIT', `\`${name}\` ${how}${tail ? `: ${tail}` : ''}`, { retryable: false }));
    });
  });
}

/**
 * Any program that reads the prompt on stdin and prints its reply on stdout (`claude -p`,
 * `codex exec`, a script). No shell, a scrubbed environment, a capped output, and a timeout that
 * kills the whole process tree.
 */
export function createCommandAdapter(options: CommandAdapterOptions): ModelAdapter {
  if (options.command.length === 0 || options.command[0] === '') {
    throw new ProviderError('E_COMMAND_SPAWN', `target "${options.id}" has an empty command`, { retryable: false });
  }
  const runtime = withRuntime(options.runtime);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 2, ...options.retry };
  const env = scrubEnv(options.env, options.allowEnv ?? []);
  const secrets = Object.entries(env)
    .filter(([name]) => looksSecret(name))
    .map(([, value]) => value);
  const target: TargetInfo = {
    id: options.id,
    provider: 'command',
    ...(options.model !== undefined ? { model: options.model } : {}),
  };

  return {
    target,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const started = runtime.now();
      const input = renderPrompt(request.messages);
      const { value, attempts } = await withRetries(
        () =>
          runOnce({
            command: options.command,
            input,
            env,
            cwd: options.cwd,
            timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            deadline: runtime.deadline,
            outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
            signal: request.signal,
            secrets,
          }),
        { policy, runtime, signal: request.signal },
      );
      return { text: value, usage: {}, latencyMs: Math.max(0, runtime.now() - started), attempts };
    },
  };
}
