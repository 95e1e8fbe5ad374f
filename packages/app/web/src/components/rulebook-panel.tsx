import type { Rulebook } from '@holdfast/core/browser';
import { describeCheck } from '../describe-check.js';

interface RulebookPanelProps {
  rulebook: Rulebook;
  /** Which tasks tempt each rule, by rule id. */
  temptedBy: ReadonlyMap<string, readonly string[]>;
}

/** One rulebook, two faces: the prose the told arm reads and the check the held arm enforces. */
export function RulebookPanel({ rulebook, temptedBy }: RulebookPanelProps) {
  return (
    <section className="panel rulebook" data-testid="rulebook">
      <div className="panel-head">
        <h2>Rulebook · {rulebook.name}</h2>
      </div>
      {rulebook.description !== undefined ? <p className="muted">{rulebook.description}</p> : null}
      <div className="rules">
        {rulebook.rules.map((rule) => (
          <article key={rule.id} className="rule" data-testid={`rule-${rule.id}`}>
            <h3>
              <span className="rule-id">{rule.id}</span> {rule.name}
            </h3>
            <div className="rule-faces">
              <div>
                <h4>told: the prose</h4>
                <p>{rule.prose}</p>
              </div>
              <div>
                <h4>held: the check ({rule.check.kind})</h4>
                <p>{describeCheck(rule.check)}</p>
              </div>
            </div>
            {(temptedBy.get(rule.id) ?? []).length > 0 ? <p className="muted">Tempted by: {(temptedBy.get(rule.id) ?? []).join(', ')}</p> : null}
          </article>
        ))}
      </div>
    </section>
  );
}
