import type { CliIo } from '@holdfast/core/command';
import type { ConfirmRun } from '../exec/index.js';
import type { RunOnCommitTree } from '../exec/index.js';

/** What only an in-process caller can hand the hook verb: the exec broker's own run of a required command. */
export interface HookInProcess {
  readonly confirmRun?: ConfirmRun;
  /** The exec broker's run of a required command on a commit's tree (pre-commit, reference-transaction). */
  readonly runOnCommitTree?: RunOnCommitTree;
  /**
   * When the answer is due (epoch ms), from the installed command's deadline: a check that may run
   * past it runs where it can be stopped (decide/bounded-check.ts).
   */
  readonly deadlineAt?: number;
}

/** A verb of the gate's, loaded only when it is called (the CLI's table points here). */
export interface GateCommand {
  run(args: string[], io: CliIo): Promise<number>;
}

/** The hook verb, which an in-process caller (exec's broker) can hand more. */
export interface HookCommand extends GateCommand {
  run(args: string[], io: CliIo, inProcess?: HookInProcess): Promise<number>;
}

export type GateCommandName = 'hook' | 'install' | 'uninstall' | 'allow' | 'doctor' | 'verify' | 'exec';

/**
 * The gate's own verbs: the `holdfast` CLI dispatches to them, and so does `holdfast-gate`, the gate's own command
 * (entry/command.ts), so a project that installs only the gate runs the same code with the same help.
 */
export const GATE_COMMANDS: Readonly<Record<Exclude<GateCommandName, 'hook'>, () => Promise<GateCommand>> & { hook: () => Promise<HookCommand> }> = {
  hook: () => import('./hook.js'),
  install: () => import('./install.js'),
  uninstall: () => import('./uninstall.js'),
  allow: () => import('./allow.js'),
  doctor: () => import('./doctor.js'),
  verify: () => import('./verify.js'),
  exec: () => import('./exec.js'),
};

/** One line per verb, as `holdfast --help` and `holdfast-gate --help` list it, in that order. */
export const GATE_COMMAND_SUMMARIES: Readonly<Record<GateCommandName, string>> = {
  hook: 'the live gate: judge one agent hook event from stdin',
  install: 'install the gate into Claude Code, Codex or git',
  uninstall: 'remove the gate installed by holdfast',
  allow: "a person's one-time override of the gate (interactive terminal only)",
  exec: 'run an agent confined (bubblewrap) so it cannot switch the gate off',
  doctor: 'check that each installed gate will actually run (trust, hooks, node, timeout)',
  verify: 'CI: judge every commit of base..head and the final tree with the rulebook as of the base (SARIF, JUnit, Markdown)',
};
