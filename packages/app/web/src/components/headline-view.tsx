import type { Totals } from '@holdfast/core/browser';
import { HEADLINE_DEFINITIONS, headlines } from '@holdfast/lab/browser';

/** The run's answer in one sentence per target, the same sentence the terminal and every report open with. */
export function HeadlineView({ totals }: { totals: Totals }) {
  const all = headlines(totals).filter((headline) => headline.told.landed.n + headline.held.leaks.n > 0);
  if (all.length === 0) return null;
  const hint = Object.values(HEADLINE_DEFINITIONS).join('. ');
  return (
    <section className="panel headline" data-testid="headline" aria-label="Headline" title={hint}>
      {all.map((headline) => (
        <p key={headline.target} data-testid={`headline-${headline.target}`}>
          <b>{headline.target}</b>: {headline.text}
        </p>
      ))}
    </section>
  );
}
