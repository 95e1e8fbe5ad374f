import type { FormTarget } from '../run-form.js';

interface SessionSettingsProps {
  defaults: { turnCap: number; sessionSeconds: number };
  /** The chosen targets: a harness's own turn cap and time per arm (holdfast.config.yaml) win when lower. */
  targets: readonly FormTarget[];
  turnCap: number | undefined;
  sessionSeconds: number | undefined;
  onTurnCap: (value: number | undefined) => void;
  onSessionSeconds: (value: number | undefined) => void;
}

function bounded(text: string, max: number): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Math.round(Number(text));
  return Number.isFinite(value) ? Math.min(max, Math.max(1, value)) : undefined;
}

/** Loop and agent modes: the run's turn cap and time per arm (`--turn-cap`, `--session-timeout`); empty means the default. */
export function SessionSettings({ defaults, targets, turnCap, sessionSeconds, onTurnCap, onSessionSeconds }: SessionSettingsProps) {
  const own = targets
    .filter((target) => target.maxTurns !== undefined)
    .map((target) => `${target.id}: ${target.maxTurns} turns, ${Math.round((target.timeoutMs ?? 0) / 1000)} s`);
  return (
    <>
      <label>
        turns per arm
        <input
          type="number"
          min={1}
          max={1000}
          placeholder={String(defaults.turnCap)}
          value={turnCap ?? ''}
          data-testid="turn-cap"
          onChange={(event) => onTurnCap(bounded(event.target.value, 1000))}
        />
      </label>
      <label>
        seconds per arm
        <input
          type="number"
          min={1}
          max={86400}
          placeholder={String(defaults.sessionSeconds)}
          value={sessionSeconds ?? ''}
          data-testid="session-timeout"
          onChange={(event) => onSessionSeconds(bounded(event.target.value, 86_400))}
        />
      </label>
      {own.length > 0 ? (
        <p className="muted small span-2" data-testid="harness-settings">
          A target&apos;s own lower limit wins: {own.join('; ')}.
        </p>
      ) : null}
    </>
  );
}
