import { isAbsolute, relative, resolve, sep } from 'node:path';
import { existsSync } from 'node:fs';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import type { CodexView } from '../install/index.js';
import type { InstallChange } from '../install/index.js';
import { GATE_AGENTS } from '../decide/index.js';
import type { GateAgent } from '../decide/index.js';

const HELP = `Usage: holdfast install <claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git>... [--rulebook FILE] [--no-git] [--observe] [--trust] [--codex PATH] [--json]

Installs the live gate in the current project, merging with the configuration already there:
  claude-code  one hook command in .claude/settings.json for PreToolUse (Write, Edit, MultiEdit,
               NotebookEdit, Bash), PostToolUse (Bash) and Stop
  codex        one hook command in .codex/hooks.json for PreToolUse (Bash, shell, exec_command,
               apply_patch), PostToolUse (the shell tools) and Stop
  gemini-cli   one hook command in .gemini/settings.json for BeforeTool (every tool but the
               read-only ones), AfterTool (run_shell_command, MCP tools) and AfterAgent; Gemini CLI
               runs a project's hooks only in a folder it trusts
  qwen-code    one hook command in .qwen/settings.json for PreToolUse (every tool but the
               read-only ones), PostToolUse and PostToolUseFailure (run_shell_command, MCP tools)
               and Stop
  opencode     a plugin, .opencode/plugin/holdfast-gate.js, that sends tool.execute.before
               (every tool but the read-only ones), tool.execute.after (bash, MCP tools) and
               session.idle to the hook; a refusal is an Error thrown before the call
  copilot-cli  .github/hooks/holdfast.json: one hook command for preToolUse, postToolUse,
               postToolUseFailure and agentStop (every tool); Copilot CLI runs a project's hooks
               only in a folder it trusts
  git          a block in the pre-commit hook that judges the staged changes, and one in the
               reference-transaction hook that refuses any ref update (merge, rebase, pull,
               stash, update-ref, a push into the repository, --no-verify) bringing in a commit
               that breaks a rule; an existing hook of either name keeps running after ours
An agent gate comes with the git gate (skip it with --no-git), and .holdfast/ (audit log, session
state) is added to .git/info/exclude. Running it again changes nothing; \`holdfast uninstall\`
removes only holdfast's entries. \`holdfast doctor\` checks that each hook will actually run.

The agents' settings name no path of this machine, so a team can commit them: the hook finds
holdfast in the project's node_modules/@holdfast/gate (\`npm install --save-dev holdfast\`) and runs
it with node from PATH. When the project has none, install records where this holdfast is in
.holdfast/hook-location (this clone only, kept out of git), which the hook takes first. The git hooks
(never committed) run this node and hook entry by absolute path. Whenever the hook finds no holdfast,
it refuses every call (and git every commit) and says what to install or run.

Codex runs a project's hooks only after a person trusted them; until then it skips them silently.
Trust them in Codex (/hooks), or pass --trust to record the trust now, as Codex's own review does.

Options:
  --rulebook FILE  the rulebook the hook enforces (named from the project root); default the project's
                   holdfast/rulebook.yaml (or $HOLDFAST_RULEBOOK), refused when there is none
  --no-git         do not install the git pre-commit gate with an agent gate
  --observe        agent hooks judge and record every call but never block (an experiment's told arm)
  --trust          codex: record your trust in holdfast's hooks in Codex's user config
  --codex PATH     the codex binary for --trust (default: codex on PATH)
  --json           print the changes as JSON
  -h, --help       this help`;

export function readTargets(verb: string, positionals: string[]): GateAgent[] {
  if (positionals.length === 0)
    throw new InputError('E_ARGS', `holdfast ${verb}: name at least one of ${GATE_AGENTS.join(', ')}. See \`holdfast ${verb} --help\`.`);
  return positionals.map((target) => {
    if (!(GATE_AGENTS as readonly string[]).includes(target)) {
      throw new InputError('E_ARGS', `holdfast ${verb}: unknown target "${target}"; use ${GATE_AGENTS.join(', ')}.`);
    }
    return target as GateAgent;
  });
}

export type TargetChange = { target: GateAgent | 'exclude' | 'state' } & InstallChange;

/** The report shared by install and uninstall: one line per target, or the list as JSON. */
export function printChanges(io: CliIo, changes: readonly TargetChange[], json: boolean, extra: Record<string, unknown> = {}): void {
  if (json) writeLine(io.stdout, JSON.stringify({ changes, ...extra }, null, 2));
  else for (const change of changes) writeLine(io.stdout, `${change.target}: ${change.change} ${change.file} (${change.note})`);
}

const TRUST_TEXT = [
  'codex: Codex runs project hooks only after you trust them, and skips untrusted ones without a word.',
  "  Trust holdfast's hooks in Codex (start `codex` here and review them with /hooks), or run",
  "  `holdfast install codex --trust` to record the trust now: Codex computes each hook's hash and",
  '  writes it to [hooks.state] in your ~/.codex/config.toml, exactly as its own review does.',
  '  Codex also loads .codex/ only in a project folder you trusted (it asks the first time you start it here).',
  '  Check with `holdfast doctor`.',
];

function trustLines(view: CodexView): string[] {
  if (view.hooks.length === 0) {
    return [
      'codex: Codex did not load .codex/hooks.json here, so there was nothing to trust: trust this project folder in Codex first (start `codex` here), then run `holdfast install codex --trust` again.',
    ];
  }
  return view.hooks.map(
    (hook) => `codex: ${hook.eventName} hook ${hook.trustStatus === 'trusted' ? 'trusted' : `NOT trusted (${hook.trustStatus})`} (${hook.key})`,
  );
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('install', args, {
      rulebook: { type: 'string' },
      'no-git': { type: 'boolean' },
      observe: { type: 'boolean' },
      trust: { type: 'boolean' },
      codex: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    const named = readTargets('install', positionals);
    if (values.trust === true && !named.includes('codex'))
      throw new InputError('E_ARGS', 'holdfast install: --trust is for codex; name it: `holdfast install codex --trust`.');
    const targets = [...new Set<GateAgent>(values['no-git'] === true ? named : [...named, 'git'])];
    const [{ installExclude, installGate, isGitRepository }, { hookEntryPath }] = await Promise.all([
      import('../install/install.js'),
      import('../exec/holdfast-installation.js'),
    ]);
    const entry = hookEntryPath();
    if (!existsSync(entry)) {
      throw new InputError(
        'E_INSTALL_ENTRY',
        `holdfast install: the hook entry ${entry} is missing; run \`npm run build\` in holdfast's folder, then install again.`,
      );
    }
    if (targets.includes('git') && !isGitRepository(io.cwd)) {
      throw new InputError(
        'E_INSTALL_GIT',
        `holdfast install: ${io.cwd} is not a git repository; run \`git init\` first, install from the repository root, or pass --no-git.`,
      );
    }
    let rulebook = values.rulebook;
    if (rulebook === undefined) {
      const { findProjectRulebook } = await import('../decide/project-rulebook.js');
      const found = findProjectRulebook(io.cwd, io.env);
      if (found.state === 'missing') throw new InputError('E_INSTALL_RULEBOOK', `holdfast install: ${found.message}.`);
      rulebook = found.shown;
    }
    // The agents' settings are committed: a rulebook inside the project is named from its root, as every clone has it.
    const fromRoot = relative(resolve(io.cwd), resolve(io.cwd, rulebook));
    const inProject = fromRoot !== '' && !fromRoot.startsWith('..') && !isAbsolute(fromRoot);
    if (inProject) rulebook = fromRoot.split(sep).join('/');
    const target = { node: process.execPath, entry, rulebook, observe: values.observe === true };
    const changes: TargetChange[] = targets.map((each) => ({ target: each, ...installGate(each, io.cwd, target) }));
    if (isGitRepository(io.cwd)) changes.push({ target: 'exclude', ...installExclude(io.cwd) });
    (await import('../state/guarded-baseline.js')).refreshGuardedBaseline(resolve(io.cwd));
    let trusted: CodexView | undefined;
    if (values.trust === true) {
      const { findCodex, trustHoldfastHooks } = await import('../install/codex-hooks.js');
      const codex = findCodex(values.codex, io.env, io.cwd);
      if (codex === undefined)
        throw new InputError(
          'E_CODEX',
          `holdfast install: ${values.codex === undefined ? 'no codex on PATH' : `${values.codex} is not an executable`}; pass --codex PATH to record trust.`,
        );
      trusted = await trustHoldfastHooks(codex, io.cwd, io.env);
    }
    printChanges(io, changes, values.json === true, trusted === undefined ? {} : { codexTrust: trusted.hooks });
    if (values.json !== true && !inProject && named.some((each) => each !== 'git'))
      writeLine(
        io.stdout,
        `note: the rulebook ${rulebook} is outside the project, so the settings name it by this machine's path; keep the rulebook in the project for settings a team can commit.`,
      );
    if (values.json !== true && named.includes('codex')) {
      for (const line of trusted === undefined ? TRUST_TEXT : trustLines(trusted)) writeLine(io.stdout, line);
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    throw error;
  }
}
