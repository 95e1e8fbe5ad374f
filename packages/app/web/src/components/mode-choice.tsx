import { MODE_LABELS, MODES, canRun } from '../run-form.js';
import type { FormTarget, RunMode } from '../run-form.js';

interface ModeChoiceProps {
  targets: readonly FormTarget[];
  mode: RunMode;
  onMode: (mode: RunMode) => void;
}

/** Plan, loop or agent mode, each with how many configured targets are ready to play it. */
export function ModeChoice({ targets, mode, onMode }: ModeChoiceProps) {
  return (
    <label className="mode-choice">
      mode
      <select value={mode} onChange={(event) => onMode(event.target.value as RunMode)} data-testid="mode">
        {MODES.map((value) => (
          <option key={value} value={value}>
            {value} ({targets.filter((target) => canRun(target, value)).length} ready): {MODE_LABELS[value]}
          </option>
        ))}
      </select>
    </label>
  );
}
