import { realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, isAbsolute } from 'node:path';
import type { Server } from 'node:net';
import { inside } from './containment.js';
import type { BrokerRequest } from './gate-broker-client.js';
import type { HookAnswer } from '../decide/index.js';

/** A request larger than this is refused unread: a hook event is a tool call, not a repository. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** The hook's agents, as the first word of a hook command. */
const BROKER_AGENTS = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'opencode', 'copilot-cli', 'git'] as const;
type BrokerAgent = (typeof BROKER_AGENTS)[number];

/**
 * How the broker judges, fixed when `exec` starts (from the hook commands installed then, which the
 * sandbox cannot write): the rulebook and the mode of each agent's hook, and the folder Claude Code
 * was started in. A request names its agent and carries its event; every option it sends besides
 * its deadline is dropped and these are put in their place, so no request can choose a rulebook,
 * switch to observe-only or move the project.
 */
export interface BrokerJudging {
  /** Absolute rulebook path per agent: what its installed command names, else the project's own. */
  readonly rulebooks: Readonly<Record<BrokerAgent, string>>;
  /** Agents whose installed command judges without blocking (`--observe`). */
  readonly observe: Readonly<Partial<Record<BrokerAgent, boolean>>>;
  /** CLAUDE_PROJECT_DIR as Claude Code sets it: the folder exec started the agent in. */
  readonly claudeProjectDir: string;
}

export interface GateBrokerOptions {
  readonly socketPath: string;
  /** The project exec confines; a request for a folder outside it is refused. */
  readonly project: string;
  readonly judging: BrokerJudging;
  /**
   * The places of the repository's layout (commondir, alternates, config, info/, hooks, where .git
   * points) that changed since exec started; any is tamper, and every request is refused while it lasts.
   */
  readonly layoutChanges?: () => readonly string[];
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

/**
 * The hook command the broker runs for a request: its agent (and `reference-transaction` after git),
 * its deadline if it is a whole number of milliseconds, then the fixed rulebook and mode. Anything
 * else the request's argv says is not read.
 */
/** The options of `holdfast hook` that take a value: their values are never positionals. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(['--rulebook', '--deadline-ms']);

function positionals(args: readonly string[]): string[] {
  const found: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (VALUE_OPTIONS.has(arg)) index += 1;
    else if (!arg.startsWith('-')) found.push(arg);
  }
  return found;
}

function judgedArgv(argv: readonly string[], judging: BrokerJudging): string[] | string {
  const [agent, ...rest] = argv;
  if (!(BROKER_AGENTS as readonly string[]).includes(agent ?? '')) return 'the hook named no agent the gate judges';
  const known = agent as BrokerAgent;
  // The installed git hook names `reference-transaction` after its options (`git --rulebook F reference-transaction`):
  // it is a positional wherever it stands, never the value of an option that takes one.
  const references = known === 'git' && positionals(rest).includes('reference-transaction');
  const at = rest.indexOf('--deadline-ms');
  const deadline = at === -1 ? undefined : Number(rest[at + 1]);
  return [
    known,
    ...(references ? ['reference-transaction'] : []),
    ...(deadline !== undefined && Number.isInteger(deadline) && deadline > 0 ? ['--deadline-ms', String(deadline)] : []),
    '--rulebook',
    judging.rulebooks[known],
    ...(judging.observe[known] === true ? ['--observe'] : []),
  ];
}

/** The request, if it is one the broker answers: well-formed, and about a folder inside the project; its argv rebuilt from the fixed judging. */
export function readBrokerRequest(text: string, project: string, judging: BrokerJudging): BrokerRequest | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'the hook sent a request the broker could not read';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'the hook sent a request the broker could not read';
  const record = parsed as Record<string, unknown>;
  const { argv, cwd, stdin, gitIndexFile } = record;
  if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string') || typeof cwd !== 'string' || typeof stdin !== 'string') {
    return 'the hook sent a request the broker could not read';
  }
  const root = realOrSelf(project);
  if (!inside(realOrSelf(cwd), root)) return `the hook ran in ${cwd}, outside the project holdfast exec confines (${root})`;
  if (gitIndexFile !== undefined && typeof gitIndexFile !== 'string') return 'the hook sent a request the broker could not read';
  const judged = judgedArgv(argv as string[], judging);
  if (typeof judged === 'string') return judged;
  // The index of a repository inside the project is read; one elsewhere (a linked worktree's git
  // folder outside it) is not, and git's default index is judged, as before the hook named one.
  const index =
    judged[0] === 'git' && typeof gitIndexFile === 'string' && isAbsolute(gitIndexFile) && inside(realOrSelf(dirname(gitIndexFile)), root)
      ? { gitIndexFile }
      : {};
  // The project folder a Claude Code hook names is the one Claude Code was started in, which exec knows.
  const projectDir = judged[0] === 'claude-code' ? { projectDir: judging.claudeProjectDir } : {};
  return { argv: judged, cwd, stdin, ...projectDir, ...index };
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
      const read = readBrokerRequest(Buffer.concat(chunks).toString('utf8'), options.project, options.judging);
      let changed: readonly string[] = [];
      try {
        changed = options.layoutChanges?.() ?? [];
      } catch (error) {
        changed = [`the layout could not be read (${error instanceof Error ? error.message : String(error)})`];
      }
      const request =
        typeof read === 'string' || changed.length === 0
          ? read
          : `GATE TAMPER: the repository's layout changed since holdfast exec started (${changed.join(', ')} under .git); git would now read another configuration, hooks, attributes or objects. Restore it`;
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
