import type { SandboxCommand } from '../contract/index.js';
import type { ObservedRun } from '../contract/index.js';

/**
 * How each `run` of an arm really ended, from its sandbox record, keyed by action index. A run
 * passed only when it executed and exited 0: a timeout, a signal, a refusal or a failure to start
 * is not a passing test run.
 */
export function observedRuns(commands: readonly SandboxCommand[]): Map<number, ObservedRun> {
  const observed = new Map<number, ObservedRun>();
  for (const command of commands) observed.set(command.index, observe(command));
  return observed;
}

function observe(command: SandboxCommand): ObservedRun {
  if (!command.executed)
    return { passed: false, ending: `it was not executed (${(command.reason ?? 'no reason recorded').replace(/^Not executed: /, '').replace(/\.$/, '')})` };
  if (command.timedOut === true) return { passed: false, ending: 'it was killed at the timeout' };
  if (command.exitCode === undefined) return { passed: false, ending: `it ended by signal ${command.signal ?? 'unknown'}` };
  return { passed: command.exitCode === 0, ending: `exit code ${command.exitCode}` };
}
