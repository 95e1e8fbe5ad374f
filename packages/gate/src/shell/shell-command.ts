import { ShellReader } from './shell-reader.js';
import type { ShellContext, ShellReading } from './shell-reading.js';

export type { GateBypass, ShellContext, ShellReading } from './shell-reading.js';

const POSSIBLE_COMMIT = /commit|no-verify|hookspath|\.git\/hooks/i;

/**
 * Reads what a shell command would do, not what it looks like: every file it would write or delete
 * (paths relative to the root), every simple command as a run, every commit, every attempt to skip
 * or disable the git hooks or the gate, and what cannot be known statically (a script, an
 * interpreter). Parsed with a real bash grammar, bodies of `bash -c`, `eval` and substitutions read
 * recursively. Never throws: what cannot be read is an unknown effect, and a possible bypass.
 */
export function readShellCommand(command: string, context: ShellContext): ShellReading {
  try {
    return new ShellReader(command, context).read();
  } catch (error) {
    const segment = command.trim().length <= 200 ? command.trim() : `${command.trim().slice(0, 199)}…`;
    const why = `could not be read (${error instanceof Error ? error.message : String(error)})`;
    return {
      actions: [{ type: 'run', cmd: command.trim() }],
      bypasses: POSSIBLE_COMMIT.test(command) ? [{ segment, reason: `\`${segment}\` ${why}; it may commit or change the git hooks unseen` }] : [],
      unknownEffects: [`\`${segment}\` ${why}`],
    };
  }
}
