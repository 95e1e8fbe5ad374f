import type { Rate } from '@holdfast/core/browser';
import { formatRate, hasEstimate } from '../format.js';

const WIDTH = 160;
const HEIGHT = 14;

/** A rate as a point on 0–100% with its 95% interval as a bar, and the figure with its n beside it. */
export function RateBar({ rate, color, testId }: { rate: Rate; color: string; testId?: string }) {
  const text = formatRate(rate);
  return (
    <span className="rate" data-testid={testId} data-count={rate.count} data-n={rate.n}>
      {/* The viewBox makes a narrower box (a phone's table) scale the whole axis, never crop its right end. */}
      <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={text}>
        <rect x={0} y={HEIGHT / 2 - 1} width={WIDTH} height={2} fill="#e9ecef" />
        {[0.25, 0.5, 0.75].map((tick) => (
          <rect key={tick} x={tick * WIDTH} y={3} width={1} height={HEIGHT - 6} fill="#dee2e6" />
        ))}
        {hasEstimate(rate) ? (
          <>
            <rect x={rate.low * WIDTH} y={3} width={Math.max(2, (rate.high - rate.low) * WIDTH)} height={HEIGHT - 6} rx={2} fill={color} opacity={0.35} />
            <circle cx={Math.min(WIDTH - 3, Math.max(3, rate.rate * WIDTH))} cy={HEIGHT / 2} r={3.5} fill={color} />
          </>
        ) : null}
      </svg>
      <span className="rate-text">{text}</span>
    </span>
  );
}
