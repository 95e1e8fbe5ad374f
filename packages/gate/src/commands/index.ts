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

export type GateCommandName = 'hook' | 'install' | 'uninstall' | 'allow' | 'doctor';

/** The gate's own verbs: the `holdfast` CLI dispatches to them, and so can any entry of the gate alone. */
export const GATE_COMMANDS: Readonly<Record<Exclude<GateCommandName, 'hook'>, () => Promise<GateCommand>> & { hook: () => Promise<HookCommand> }> = {
  hook: () => import('./hook.js'),
  install: () => import('./install.js'),
  uninstall: () => import('./uninstall.js'),
  allow: () => import('./allow.js'),
  doctor: () => import('./doctor.js'),
};
