import type { Arm, Rate, Totals } from '@holdfast/core/browser';
import { formatRate, hasEstimate } from '../format.js';

const ARMS: readonly Arm[] = ['told', 'held'];
/** Told is drawn solid, held hatched: the arms differ in shape, not colour alone. */
const ARM_FILL: Readonly<Record<Arm, string>> = { told: '#1864ab', held: 'url(#held-hatch)' };
const ROW = 18;
const LABEL = 170;
const WIDTH = 560;
const PLOT = WIDTH - LABEL - 110;

/**
 * Who obeys best, told vs held: per target, the share of rounds where a violation landed in each
 * arm, with its Wilson 95% interval as a whisker. Lower is better. Each bar's text is in the chart.
 */
export function ToldHeldChart({ totals }: { totals: Totals }) {
  const targets = [...new Set(totals.arms.map((row) => row.target))];
  if (targets.length === 0) return null;
  const height = targets.length * (ROW * 2 + 10) + 24;
  const x = (value: number) => LABEL + value * PLOT;
  return (
    <figure className="panel told-held-chart" data-testid="told-held-chart">
      <figcaption>
        <h2>Rounds where a violation landed, told vs held</h2>
        <span className="muted">per target; bar = rate, whisker = 95% interval; lower is better. Told solid, held hatched.</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        role="img"
        aria-label={targets.map((target) => ARMS.map((arm) => `${target} ${arm}: ${rateText(totals, target, arm)}`).join('; ')).join('; ')}
      >
        <defs>
          <pattern id="held-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" fill="#a5d8ff" />
            <line x1="0" y1="0" x2="0" y2="6" stroke="#1864ab" strokeWidth="3" />
          </pattern>
        </defs>
        {[0, 0.25, 0.5, 0.75, 1].map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={0} y2={height - 18} stroke="#dee2e6" />
            <text x={x(tick)} y={height - 4} fontSize="10" textAnchor="middle" fill="#495057">
              {Math.round(tick * 100)}%
            </text>
          </g>
        ))}
        {targets.map((target, index) => {
          const top = index * (ROW * 2 + 10);
          return (
            <g key={target} data-target={target}>
              <text x={0} y={top + ROW + 4} fontSize="12" fill="#212529">
                {target}
              </text>
              {ARMS.map((arm, armIndex) => {
                const rate = landedOf(totals, target, arm);
                const y = top + armIndex * ROW;
                if (rate === undefined || !hasEstimate(rate)) {
                  return (
                    <text key={arm} x={LABEL} y={y + 12} fontSize="10" fill="#495057">
                      {arm}: no rounds
                    </text>
                  );
                }
                return (
                  <g key={arm} data-testid={`chart-${target}-${arm}`} data-rate={rate.rate} data-low={rate.low} data-high={rate.high}>
                    <rect x={LABEL} y={y + 3} width={Math.max(1, rate.rate * PLOT)} height={ROW - 6} fill={ARM_FILL[arm]} stroke="#1864ab" />
                    <line x1={x(rate.low)} x2={x(rate.high)} y1={y + ROW / 2} y2={y + ROW / 2} stroke="#212529" strokeWidth="1.5" />
                    <line x1={x(rate.low)} x2={x(rate.low)} y1={y + 4} y2={y + ROW - 4} stroke="#212529" />
                    <line x1={x(rate.high)} x2={x(rate.high)} y1={y + 4} y2={y + ROW - 4} stroke="#212529" />
                    <text x={LABEL + PLOT + 6} y={y + 12} fontSize="10" fill="#212529">
                      {arm} {formatRate(rate)}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function landedOf(totals: Totals, target: string, arm: Arm): Rate | undefined {
  return totals.arms.find((row) => row.target === target && row.arm === arm)?.roundsLanded;
}

function rateText(totals: Totals, target: string, arm: Arm): string {
  const rate = landedOf(totals, target, arm);
  return rate === undefined ? 'no rounds' : formatRate(rate);
}
