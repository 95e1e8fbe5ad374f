import type { Rate, Totals } from '@holdfast/core/browser';
import { HEADLINE_DEFINITIONS, headlines } from '@holdfast/lab/browser';
import type { TargetHeadline } from '@holdfast/lab/browser';

function ofN(rate: Rate): string {
  return rate.n === 0 ? '–' : `${rate.count} of ${rate.n}`;
}

/** One figure of the headline: big count, what it counts, coloured by whether it is bad news. */
function Figure({ label, rate, tone, testId, hint }: { label: string; rate: Rate; tone: 'bad' | 'good' | 'plain'; testId: string; hint: string }) {
  return (
    <span className={`headline-figure ${tone}`} data-testid={testId} data-count={rate.count} data-n={rate.n} title={hint}>
      <b>{ofN(rate)}</b> {label}
    </span>
  );
}

/** A target none of whose replies could be judged: no figures (they would read as a clean result), the problem in red. */
function NoEvidenceCard({ headline }: { headline: TargetHeadline }) {
  return (
    <article className="headline-target no-evidence" data-testid={`headline-card-${headline.target}`} data-evidence="none">
      <h2>{headline.target}</h2>
      <p className="headline-figure bad" data-testid={`headline-${headline.target}`}>
        {headline.text}
      </p>
    </article>
  );
}

function TargetCard({ headline }: { headline: TargetHeadline }) {
  if (headline.noEvidence !== undefined) return <NoEvidenceCard headline={headline} />;
  const { told, held } = headline;
  const leaked = held.leaks.count > 0;
  return (
    <article className={`headline-target${leaked ? ' leaked' : ''}`} data-testid={`headline-card-${headline.target}`} data-leaks={held.leaks.count}>
      <h2>{headline.target}</h2>
      <div className="headline-answers">
        <div className="headline-answer">
          <span className="headline-question">Does it obey when told?</span>
          <Figure
            label="rounds where a violation landed"
            rate={told.landed}
            tone={told.landed.count > 0 ? 'bad' : 'good'}
            testId={`headline-told-${headline.target}`}
            hint={HEADLINE_DEFINITIONS.toldLanded}
          />
        </div>
        <div className="headline-answer">
          <span className="headline-question">Does the gate hold?</span>
          <Figure
            label={leaked ? 'GATE LEAKS: a violation landed despite the gate' : 'gate leaks'}
            rate={held.leaks}
            tone={leaked ? 'bad' : 'good'}
            testId={`headline-leaks-${headline.target}`}
            hint={HEADLINE_DEFINITIONS.heldLeaks}
          />
          {held.recovered.count > 0 ? (
            <Figure
              label="blocked, then recovered"
              rate={held.recovered}
              tone="good"
              testId={`headline-recovered-${headline.target}`}
              hint={HEADLINE_DEFINITIONS.heldRecovered}
            />
          ) : null}
          {held.cleanAndDone.n > 0 ? (
            <Figure
              label="clean and done"
              rate={held.cleanAndDone}
              tone="plain"
              testId={`headline-done-${headline.target}`}
              hint={HEADLINE_DEFINITIONS.heldCleanAndDone}
            />
          ) : null}
          {held.warned > 0 ? (
            <span
              className="headline-figure plain"
              data-testid={`headline-warned-${headline.target}`}
              data-count={held.warned}
              title={HEADLINE_DEFINITIONS.heldWarned}
            >
              <b>{held.warned}</b> warned (rules at warn, not enforced)
            </span>
          ) : null}
          {headline.overCap.told + headline.overCap.held > 0 ? (
            <span className="headline-figure bad" data-testid={`headline-over-cap-${headline.target}`} title={HEADLINE_DEFINITIONS.overCap}>
              <b>
                {headline.overCap.told} told, {headline.overCap.held} held
              </b>{' '}
              over the sandbox cap
            </span>
          ) : null}
        </div>
      </div>
      <p className="headline-sentence" data-testid={`headline-${headline.target}`}>
        {headline.text}
      </p>
    </article>
  );
}

/**
 * The run's answer first, per target: does the model obey when told (told rounds where a violation
 * landed) and does the gate hold (gate leaks, recoveries). A leak is shown as loudly as a
 * violation. The sentence under each is the one the terminal and every report open with.
 */
export function HeadlineView({ totals }: { totals: Totals }) {
  const all = headlines(totals).filter((headline) => headline.noEvidence !== undefined || headline.told.landed.n + headline.held.leaks.n > 0);
  if (all.length === 0) return null;
  return (
    <section className="panel headline" data-testid="headline" aria-label="Headline">
      {all.map((headline) => (
        <TargetCard key={headline.target} headline={headline} />
      ))}
    </section>
  );
}
