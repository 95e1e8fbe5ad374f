import { SESSION_DEFAULTS } from '../run-form.js';
import type { FormTarget, RunMode } from '../run-form.js';
import { SessionSettings } from './session-settings.js';

/** How a live run plays, beyond what it plays: the form's settings under the task list. */
export interface RunKnobValues {
  readonly reps: number;
  readonly concurrency: number;
  readonly humanGate: boolean;
  readonly sandbox: boolean;
  /** Loop and agent modes; undefined means the mode's default. */
  readonly turnCap: number | undefined;
  readonly sessionSeconds: number | undefined;
  readonly timeoutSeconds: number;
}

export const DEFAULT_KNOBS: RunKnobValues = {
  reps: 1,
  concurrency: 3,
  humanGate: false,
  sandbox: false,
  turnCap: undefined,
  sessionSeconds: undefined,
  timeoutSeconds: 90,
};

interface RunKnobsProps {
  mode: RunMode;
  knobs: RunKnobValues;
  /** The chosen targets: their own turn caps and times are shown beside the session settings. */
  chosenTargets: readonly FormTarget[];
  onChange: (change: Partial<RunKnobValues>) => void;
}

/** Repetitions, concurrency, session limits (loop and agent), the human gate and git sandboxes (plan and loop). */
export function RunKnobs({ mode, knobs, chosenTargets, onChange }: RunKnobsProps) {
  return (
    <div className="knobs">
      <label>
        repetitions
        <select value={knobs.reps} onChange={(event) => onChange({ reps: Number(event.target.value) })} data-testid="reps">
          {[1, 2, 3, 4, 5].map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <label>
        concurrency
        <input
          type="number"
          min={1}
          max={16}
          value={knobs.concurrency}
          onChange={(event) => onChange({ concurrency: Math.min(16, Math.max(1, Number(event.target.value) || 1)) })}
        />
      </label>
      {mode !== 'plan' ? (
        <SessionSettings
          defaults={SESSION_DEFAULTS[mode]}
          targets={chosenTargets}
          turnCap={knobs.turnCap}
          sessionSeconds={knobs.sessionSeconds}
          onTurnCap={(turnCap) => onChange({ turnCap })}
          onSessionSeconds={(sessionSeconds) => onChange({ sessionSeconds })}
        />
      ) : null}
      <label className="gate-toggle">
        <input type="checkbox" checked={knobs.humanGate} onChange={(event) => onChange({ humanGate: event.target.checked })} data-testid="human-gate" />
        human gate on commits
      </label>
      <label>
        refuse after (s)
        <input
          type="number"
          min={1}
          max={3600}
          value={knobs.timeoutSeconds}
          disabled={!knobs.humanGate}
          data-testid="approval-timeout"
          onChange={(event) => onChange({ timeoutSeconds: Math.min(3600, Math.max(1, Number(event.target.value) || 1)) })}
        />
      </label>
      {mode !== 'agent' ? (
        <label className="gate-toggle" title="Each arm lands in a throwaway git repository: real commits, allowlisted commands run">
          <input type="checkbox" checked={knobs.sandbox} onChange={(event) => onChange({ sandbox: event.target.checked })} data-testid="sandbox-toggle" />
          land in git sandboxes
        </label>
      ) : null}
    </div>
  );
}
