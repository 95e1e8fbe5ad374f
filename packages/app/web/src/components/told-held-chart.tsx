import type { Arm, Rate, Totals } from '@holdfast/core/browser';
import { formatRate, hasEstimate } from '../format.js';

const ARMS: readonly Arm[] = ['told', 'held'];

type Measure = 'attempted' | 'landed';
const MEASURES: readonly { measure: Measure; field: 'roundsWithAttempt' | 'roundsLanded'; title: string }[] = [
  { measure: 'attempted', field: 'roundsWithAttempt', title: 'tried a violation (what the model did)' },
  { measure: 'landed', field: 'roundsLanded', title: 'a violation landed (what enforcement let through)' },
];

function rateOf(totals: Totals, target: string, arm: Arm, field: 'roundsWithAttempt' | 'roundsLanded'): Rate | undefined {
  return totals.arms.find((row) => row.target === target && row.arm === arm)?.[field];
}

function percent(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}

/** The label of a bar: held's landed violations are gate leaks, and say so. */
function armLabel(arm: Arm, measure: Measure, rate: Rate): string {
  if (arm === 'held' && measure === 'landed') return rate.count > 0 ? 'held: GATE LEAK' : 'held';
  return arm;
}

function Bar({ target, arm, measure, rate }: { target: string; arm: Arm; measure: Measure; rate: Rate | undefined }) {
  // The landed row keeps the short test id the run page has always had.
  const testId = measure === 'landed' ? `chart-${target}-${arm}` : `chart-${target}-${arm}-${measure}`;
  const bad = rate !== undefined && rate.count > 0 && (measure === 'landed' || arm === 'told');
  if (rate === undefined || !hasEstimate(rate)) {
    return (
      <div className="chart-row" data-testid={testId}>
        <span className="chart-arm">{arm}</span>
        <span className="chart-track" />
        <span className="chart-value muted">no rounds</span>
      </div>
    );
  }
  return (
    <div
      className={`chart-row arm-${arm}${bad ? ' bad' : ''}`}
      data-testid={testId}
      data-rate={rate.rate}
      data-low={rate.low}
      data-high={rate.high}
      data-count={rate.count}
      data-n={rate.n}
    >
      <span className="chart-arm">{armLabel(arm, measure, rate)}</span>
      <span className="chart-track" aria-hidden="true">
        <span className="chart-bar" style={{ width: rate.rate === 0 ? '2px' : percent(rate.rate) }} />
        <span className="chart-whisker" style={{ left: percent(rate.low), width: percent(rate.high - rate.low) }} />
      </span>
      <span className="chart-value" data-testid="chart-label">
        {formatRate(rate)}
      </span>
    </div>
  );
}

/**
 * What the model tried and what landed, told vs held, per target: the share of rounds with an
 * attempted violation and the share where one landed, each with its Wilson 95% interval as a
 * whisker. Lower is better. Bars are boxes in the page's flow, and their figures are text beside
 * them, so a label is never cut by the chart's edge at any width.
 */
export function ToldHeldChart({ totals }: { totals: Totals }) {
  const targets = [...new Set(totals.arms.map((row) => row.target))];
  if (targets.length === 0) return null;
  const summary = targets
    .map((target) =>
      MEASURES.map(({ measure, field }) => ARMS.map((arm) => `${target} ${arm} ${measure}: ${rateText(rateOf(totals, target, arm, field))}`).join('; ')).join(
        '; ',
      ),
    )
    .join('; ');
  return (
    <figure className="panel told-held-chart" data-testid="told-held-chart" role="group" aria-label={summary}>
      <figcaption>
        <h2>Attempts and landings, told vs held</h2>
        <span className="muted">share of rounds per target; bar = rate, whisker = 95% interval; lower is better. Told solid, held hatched.</span>
      </figcaption>
      <div className="chart-targets">
        {targets.map((target) => (
          <section key={target} className="chart-target" data-target={target}>
            <h3>{target}</h3>
            {MEASURES.map(({ measure, field, title }) => (
              <div key={measure} className="chart-measure">
                <div className="chart-measure-title">{title}</div>
                {ARMS.map((arm) => (
                  <Bar key={arm} target={target} arm={arm} measure={measure} rate={rateOf(totals, target, arm, field)} />
                ))}
              </div>
            ))}
            <WarnedNote target={target} warned={totals.arms.find((row) => row.target === target && row.arm === 'held')?.warned ?? 0} />
          </section>
        ))}
      </div>
    </figure>
  );
}

/** Held violations of rules at warn landed on purpose: not in the landed bar, so said beside it. */
function WarnedNote({ target, warned }: { target: string; warned: number }) {
  if (warned === 0) return null;
  return (
    <p className="chart-warned muted" data-testid={`chart-${target}-held-warned`} data-count={warned}>
      held: {warned} warned (rules at warn, not enforced), let through and not in the landed bar
    </p>
  );
}

function rateText(rate: Rate | undefined): string {
  return rate === undefined ? 'no rounds' : formatRate(rate);
}
