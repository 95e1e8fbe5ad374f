import { isAbsolute, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { GATE_AGENTS } from '../decide/index.js';
import type { GateAgent } from '../decide/index.js';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, readAllText, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import type { RunOnCommitTree } from '../exec/index.js';
import type { InstallOutput } from '../git/index.js';
import type { HookInProcess } from './index.js';
import type { AgentHook } from '../hook/index.js';

const HELP = `Usage: holdfast hook <claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git> [reference-transaction] [--rulebook FILE] [--observe]

The live gate. Reads one hook event on stdin and answers in that agent's protocol:
  claude-code  PreToolUse (Write, Edit, MultiEdit, NotebookEdit, Bash): a refusal is a JSON
               permissionDecision "deny" on stdout naming every broken rule. PostToolUse: what the
               call changed is judged after it ran. Stop: new modules of the session without their
               test send the agent back to work ({"decision":"block","reason":…}).
  codex        the same events (shell commands, apply_patch); a PreToolUse refusal is exit 2 with
               the reason on stderr, a Stop block the same JSON as Claude Code's.
  gemini-cli   BeforeTool (write_file, replace, run_shell_command, MCP tools): a refusal is
               {"decision":"deny","reason":…}; AfterTool: what the call changed is judged after it
               ran; AfterAgent: new modules without their test send the agent back ({"decision":"block"}).
  qwen-code    Claude Code's events and answers (write_file, edit, run_shell_command, MCP tools);
               after a call the model is told in additionalContext, which Qwen Code reads there.
  opencode     what holdfast's OpenCode plugin sends (tool.execute.before/after, session.idle; write,
               edit, bash, MCP tools): a refusal is {"decision":"deny","reason":…}, which the plugin
               throws as an Error; after a call {"message":…}, appended to the tool's output. OpenCode
               cannot hold the turn: session.idle is judged and recorded only.
  copilot-cli  preToolUse (create, edit, bash, MCP and other tools): a refusal is
               {"permissionDecision":"deny",…}; postToolUse/postToolUseFailure: what the call changed
               is judged after it ran ({"decision":"block"} replaces the tool's result with the
               reason); agentStop: new modules without their test send the agent back.
  git          the pre-commit hook: the staged changes judged as one round, every failure listed
               (exit 1 refuses the commit); R6 ORDER from the agent session the gate saw last.
  git reference-transaction
               git's reference-transaction hook (prepared state; ref updates on stdin): every
               commit the update makes newly reachable is judged on its own change, and one broken
               rule refuses the update (exit 1), whatever git command moved the ref.

Writes and deletes are judged where they really land (symbolic links, "..", case), and changes to
.claude/, .codex/, .gemini/, .qwen/, .opencode/, opencode.json, .github/hooks/, .github/copilot/, .git/hooks/, .git/config, .holdfast/ or the rulebook are refused as GATE TAMPER;
attempts to skip git hooks as GATE BYPASS. R3 TESTS is judged over the session: at the commit and at
the end of the turn. Session state lives in .holdfast/sessions/; every decision is appended to
.holdfast/audit.jsonl with credentials masked (see \`holdfast report --audit\`). Any internal error
refuses the call.

Options:
  --rulebook FILE  the rulebook (relative to the project root); default the project's holdfast/rulebook.yaml
                   (or $HOLDFAST_RULEBOOK); with neither, every call is refused
  --observe        the agents: judge and record every call with every rule result, never block
  -h, --help       this help`;

function isAgent(value: string | undefined): value is GateAgent {
  return value !== undefined && (GATE_AGENTS as readonly string[]).includes(value);
}

/** `holdfast hook`; `inProcess` is what only a caller in-process can give (the exec broker's own run of a required command). */
export async function run(args: string[], io: CliIo, inProcess: HookInProcess = {}): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('hook', args, {
      rulebook: { type: 'string' },
      observe: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    const [agent, ...extra] = positionals;
    const references = agent === 'git' && extra.length === 1 && extra[0] === 'reference-transaction';
    if (!isAgent(agent) || (extra.length > 0 && !references)) {
      throw new InputError('E_ARGS', `holdfast hook: name one agent: ${GATE_AGENTS.join(', ')}. See \`holdfast hook --help\`.`);
    }
    let rulebook = values.rulebook;
    if (rulebook === undefined) {
      const [{ findProjectRulebook }, { gitRoot }] = await Promise.all([import('../decide/project-rulebook.js'), import('../git/pre-commit.js')]);
      const found = findProjectRulebook(agent === 'git' ? gitRoot(io.cwd) : io.cwd, io.env);
      // No rulebook of the project's own: refuse (exit 2 blocks in every agent and in git), never the demo's rules.
      if (found.state === 'missing') {
        writeLine(io.stderr, `holdfast hook: ${found.message}. Until then every call is refused.`);
        return EXIT.usage;
      }
      rulebook = found.path;
    }
    const answer = references
      ? await referenceTransaction(io, rulebook, inProcess.runOnCommitTree)
      : agent === 'git'
        ? await preCommit(io, rulebook, inProcess.runOnCommitTree)
        : await agentHook(agent, io, rulebook, values.observe === true, inProcess);
    (await import('../state/pattern-answers.js')).savePatternAnswers();
    if (answer.stdout !== '') io.stdout.write(answer.stdout);
    if (answer.stderr !== '') io.stderr.write(answer.stderr);
    return answer.exitCode;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    // A crash that reached here (a module that failed to load) must still refuse: Claude Code lets a
    // call through on any exit but 2, so main's exit 3 would fail open. Exit 2 blocks in all three.
    writeLine(io.stderr, `holdfast hook: internal error, the call is refused: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.usage;
  }
}

/** The time the answer needs after the rules are done: the audit line, the session record, writing it out. */
const ANSWER_MARGIN_MS = 250;

async function agentHook(agent: AgentHook, io: CliIo, rulebookFile: string | undefined, observe: boolean, inProcess: HookInProcess) {
  const [{ answerAgentHook }, { loadRulesEngine: loadEngine }, { boundedCheckActions }, { hookEntryPath }] = await Promise.all([
    import('../hook/run-hook.js'),
    import('../decide/rules-engine.js'),
    import('../decide/bounded-check.js'),
    import('../exec/holdfast-installation.js'),
  ]);
  const { confirmRun, deadlineAt } = inProcess;
  // Under a deadline, the rules' own work is bounded: too much content is refused unread, and a
  // check that may run long runs in a child of the gate's own bundle, killed when the time is spent.
  const loadRulesEngine =
    deadlineAt === undefined
      ? loadEngine
      : async () => {
          const engine = await loadEngine();
          const budget = {
            deadlineAt: deadlineAt - ANSWER_MARGIN_MS,
            now: Date.now,
            child: { command: process.execPath, args: [hookEntryPath(), '--check-child'] },
          };
          return { loadRulebook: engine.loadRulebook, checkActions: boundedCheckActions(engine.checkActions, budget) };
        };
  // An unreadable stdin is an unreadable event: the gate denies it rather than crash.
  const input = await readAllText(io.stdin).catch(() => '');
  return answerAgentHook(agent, input, {
    env: io.env,
    now: () => new Date(),
    rulebookFile,
    loadEngine: loadRulesEngine,
    observe,
    ...(confirmRun !== undefined ? { confirmRun } : {}),
  });
}

/**
 * What `holdfast install` of this holdfast writes, for the git hooks to know the install commit by: the
 * same install code, this process's node and hook entry, the rulebook this hook was installed with,
 * enforcing (an `--observe` install is not let through). Established here, never read from the commit.
 */
async function installOutput(rulebookFile: string | undefined): Promise<InstallOutput> {
  const [{ installedConfigBytes }, { hookEntryPath }] = await Promise.all([import('../install/install.js'), import('../exec/holdfast-installation.js')]);
  const target = { node: process.execPath, entry: hookEntryPath(), rulebook: rulebookFile, observe: false };
  return (path, before) => installedConfigBytes(path, before, target);
}

async function referenceTransaction(io: CliIo, rulebookFile: string | undefined, runOnCommitTree: RunOnCommitTree | undefined) {
  const [{ answerReferenceTransaction }, { loadRulesEngine }] = await Promise.all([
    import('../git/reference-transaction.js'),
    import('../decide/rules-engine.js'),
  ]);
  const engine = loadRulesEngine();
  return answerReferenceTransaction({
    cwd: io.cwd,
    env: io.env,
    stdin: await readAllText(io.stdin).catch(() => ''),
    now: () => new Date(),
    rulebook: async (root) => (await engine).loadRulebook(rulebookFile === undefined || isAbsolute(rulebookFile) ? rulebookFile : resolve(root, rulebookFile)),
    checkActions: async () => (await engine).checkActions,
    rulebookFile: (root) => (rulebookFile === undefined || isAbsolute(rulebookFile) ? rulebookFile : resolve(root, rulebookFile)),
    installOutput: await installOutput(rulebookFile),
    ...(runOnCommitTree !== undefined ? { runOnCommitTree } : {}),
  });
}

async function preCommit(io: CliIo, rulebookFile: string | undefined, runOnCommitTree: RunOnCommitTree | undefined) {
  const [{ answerPreCommit, gitRoot }, { loadRulesEngine }, { keepPatternAnswersOf }] = await Promise.all([
    import('../git/pre-commit.js'),
    import('../decide/rules-engine.js'),
    import('../state/pattern-answers.js'),
  ]);
  const root = gitRoot(io.cwd);
  keepPatternAnswersOf(root);
  const engine = loadRulesEngine();
  return answerPreCommit({
    root,
    env: io.env,
    now: () => new Date(),
    rulebook: async () => (await engine).loadRulebook(rulebookFile === undefined || isAbsolute(rulebookFile) ? rulebookFile : resolve(root, rulebookFile)),
    checkActions: async () => (await engine).checkActions,
    ...(rulebookFile !== undefined ? { rulebookFile: isAbsolute(rulebookFile) ? rulebookFile : resolve(root, rulebookFile) } : {}),
    installOutput: await installOutput(rulebookFile),
    ...(runOnCommitTree !== undefined ? { runOnCommitTree } : {}),
  });
}
