import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast exec [--weaker] [--] AGENT [ARGS…]

Runs an agent (claude, codex, any command) confined with bubblewrap, so it cannot switch the gate off:
  - the project is writable; holdfast's install and the hook entry, .claude/, .codex/, .git/hooks,
    .git/config, .holdfast/ and the rulebook are read-only (the hook's decisions are made by a broker
    outside the sandbox, which alone writes .holdfast/);
  - HOME and /tmp are private (your ~/.gitconfig and ~/.config/git are readable, not writable; the
    agent's own state folders ~/.claude and ~/.codex stay writable, their settings files do not);
  - the network is shared (the agent talks to its model);
  - it runs in a new pid namespace: when the agent exits, every process it started is killed.
Without bubblewrap it refuses and says what to install.

Options:
  --weaker    without bubblewrap, run the agent unconfined anyway; exec prints what is lost
  -h, --help  this help

Exit status: the agent's own; 2 when exec refused to run it.`;

/** Options come before the agent; everything from the agent's name on is the agent's. */
function splitArgs(args: readonly string[]): { weaker: boolean; help: boolean; agent: string[]; unknown: string | undefined } {
  let weaker = false;
  let help = false;
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] as string;
    if (arg === '--') return { weaker, help, agent: args.slice(at + 1), unknown: undefined };
    if (arg === '--weaker') weaker = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg.startsWith('-')) return { weaker, help, agent: [], unknown: arg };
    else return { weaker, help, agent: args.slice(at), unknown: undefined };
  }
  return { weaker, help, agent: [], unknown: undefined };
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const parsed = splitArgs(args);
  if (parsed.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (parsed.unknown !== undefined) {
    writeLine(io.stderr, `holdfast exec: unknown option ${parsed.unknown}. See \`holdfast exec --help\`.`);
    return EXIT.usage;
  }
  const [{ commitTreeRunner, confirmOnWorkTree, execAgent, findBubblewrap, holdfastInstallation }, { withinDeadline }, hook, { Readable }] = await Promise.all([
    import('../exec/index.js'),
    import('../io/index.js'),
    import('./hook.js'),
    import('node:stream'),
  ]);
  const bwrap = findBubblewrap(io.env);
  /**
   * The hook command itself, as the hook process runs it: under its deadline, what it writes kept for
   * the answer. A required command's pass counts only once the broker ran it itself on the same tree
   * (the event came from inside the sandbox, where any process can send one); the hook's deadline ends
   * that run too, and then the pass does not count.
   */
  const decide = async (argv: readonly string[], stdin: string, cwd: string, env: NodeJS.ProcessEnv) => {
    const outOfTime = new AbortController();
    const extra =
      bwrap === undefined
        ? {}
        : {
            confirmRun: confirmOnWorkTree({ bwrap, env, signal: outOfTime.signal }),
            runOnCommitTree: commitTreeRunner({ bwrap, env, signal: outOfTime.signal }),
          };
    const rest = [...argv];
    const at = rest.indexOf('--deadline-ms');
    const deadline = at === -1 ? undefined : Number(rest[at + 1]);
    if (at !== -1) rest.splice(at, 2);
    let stdout = '';
    let stderr = '';
    const sink = (append: (text: string) => void) => ({ write: (chunk: unknown) => (append(String(chunk)), true) }) as unknown as NodeJS.WritableStream;
    const work = hook.run(
      rest,
      {
        stdin: Readable.from([Buffer.from(stdin)]),
        stdout: sink((text) => (stdout += text)),
        stderr: sink((text) => (stderr += text)),
        cwd,
        env,
      },
      deadline !== undefined && Number.isInteger(deadline) && deadline > 0 ? { ...extra, deadlineAt: Date.now() + deadline } : extra,
    );
    if (deadline === undefined || !Number.isInteger(deadline) || deadline <= 0) {
      // Awaited first: what the hook wrote is read once it is done (the pre-commit hook has no deadline).
      const exitCode = await work;
      return { stdout, stderr, exitCode };
    }
    const raced = await withinDeadline(work, deadline);
    if (!raced.done) {
      outOfTime.abort();
      return {
        stdout: '',
        stderr: `holdfast gate: the decision did not finish within its deadline of ${deadline} ms, so this call is refused.\n`,
        exitCode: 2,
      };
    }
    return { stdout, stderr, exitCode: raced.value };
  };
  const outcome = await execAgent({
    argv: parsed.agent,
    cwd: io.cwd,
    env: io.env,
    weaker: parsed.weaker,
    holdfastRoot: holdfastInstallation(),
    node: process.execPath,
    stdinIsTerminal: io.stdin.isTTY === true,
    say: (line) => writeLine(io.stderr, line),
    decide: (request, env) => decide(request.argv, request.stdin, request.cwd, hookEnvironment(env, request)),
  });
  if (outcome.kind === 'refused') {
    writeLine(io.stderr, outcome.reason);
    return EXIT.usage;
  }
  return outcome.exitCode;
}

/** The environment a hook decided by the broker sees: the broker's, with what the hook's own said of its project and its index. */
function hookEnvironment(env: NodeJS.ProcessEnv, request: { readonly projectDir?: string; readonly gitIndexFile?: string }): NodeJS.ProcessEnv {
  const { GIT_INDEX_FILE: _ignored, ...rest } = env;
  return {
    ...rest,
    ...(request.projectDir !== undefined ? { CLAUDE_PROJECT_DIR: request.projectDir } : {}),
    ...(request.gitIndexFile !== undefined ? { GIT_INDEX_FILE: request.gitIndexFile } : {}),
  };
}
