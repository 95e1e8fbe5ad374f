import type { FormTarget } from '../run-form.js';

interface TargetListProps {
  /** How many targets holdfast.config.yaml configures, in every mode. */
  configured: number;
  /** The targets that play the chosen mode. */
  shown: readonly FormTarget[];
  chosen: ReadonlySet<string>;
  onToggle: (targetId: string) => void;
}

/** The targets of the chosen mode; one that cannot run is disabled and says why in one line, with the fix. */
export function TargetList({ configured, shown, chosen, onToggle }: TargetListProps) {
  const others = configured - shown.length;
  return (
    <>
      <h4>Targets</h4>
      {configured === 0 ? <p className="muted">No targets configured (holdfast.config.yaml). A replay needs none.</p> : null}
      <ul className="choice-list targets" data-testid="targets">
        {shown.map((target) => {
          const problem = target.problem;
          return (
            <li key={target.id} title={target.detail} data-testid={`target-${target.id}`}>
              <label className={problem === undefined ? '' : 'unusable'}>
                <input
                  type="checkbox"
                  checked={problem === undefined && chosen.has(target.id)}
                  disabled={problem !== undefined}
                  onChange={() => onToggle(target.id)}
                />
                <span className={`dot ${problem === undefined ? 'ok' : 'down'}`} role="img" aria-label={problem === undefined ? 'ready' : 'cannot run'} />
                <span className="target-name">{target.id}</span>
              </label>
              <span className="target-meta muted">{target.model ?? target.provider}</span>
              {problem !== undefined ? (
                <span className="target-problem" data-testid={`target-problem-${target.id}`}>
                  {problem}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <p className="muted small">
          {others} more target{others === 1 ? ' plays' : 's play'} another mode.
        </p>
      ) : null}
    </>
  );
}
