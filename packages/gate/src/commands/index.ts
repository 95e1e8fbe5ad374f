import type { CliIo } from '@holdfast/core/command';

/** A verb of the gate's, loaded only when it is called (the CLI's table points here). */
export interface GateCommand {
  run(args: string[], io: CliIo): Promise<number>;
}

export type GateCommandName = 'hook' | 'install' | 'uninstall' | 'allow' | 'doctor';

/** The gate's own verbs: the `holdfast` CLI dispatches to them, and so can any entry of the gate alone. */
export const GATE_COMMANDS: Readonly<Record<GateCommandName, () => Promise<GateCommand>>> = {
  hook: () => import('./hook.js'),
  install: () => import('./install.js'),
  uninstall: () => import('./uninstall.js'),
  allow: () => import('./allow.js'),
  doctor: () => import('./doctor.js'),
};
