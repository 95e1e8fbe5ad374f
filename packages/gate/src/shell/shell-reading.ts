import type { Action } from '@holdfast/core/contract';
import type { ReadText } from '../io/index.js';

/** Where a shell command runs and how to see the files it touches. */
export interface ShellContext {
  /** Absolute project root; write/delete paths come out relative to it. */
  readonly root: string;
  /** Absolute directory the command starts in (usually the root). */
  readonly cwd: string;
  /** Contents of files the command reads: cp/mv sources, `>>` appends, scripts it runs. */
  readonly readText: ReadText;
  /** Whether a path is a folder (cp into a folder, rm -r); the file system when absent. */
  readonly isDirectory?: (absolutePath: string) => boolean;
  /** `~` and `$HOME`; the user's home when absent. */
  readonly home?: string;
  /**
   * Where the command's standard input comes from: nothing (a one-shot tool call), or text that later
   * tool calls send to the running session (Codex's `exec_command`, fed by `write_stdin`, which no hook sees).
   */
  readonly input?: 'none' | 'later-calls';
}

export interface GateBypass {
  readonly segment: string;
  readonly reason: string;
}

export interface ShellReading {
  /** In execution order: write/delete (paths relative to the root), run (each simple command's text), commit. */
  readonly actions: Action[];
  /** Every attempt to skip or disable the git hooks or the gate. */
  readonly bypasses: GateBypass[];
  /** Non-empty when the command may change files in ways not known statically. */
  readonly unknownEffects: string[];
}
