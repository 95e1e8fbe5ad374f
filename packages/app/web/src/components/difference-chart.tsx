import type { CompareRow } from '../compare-totals.js';
import { differs } from '../compare-totals.js';
import { formatRate } from '../format.js';
import { formatDifference, formatP } from './compare-format.js';

/** Position on the −100 … +100 pp axis, as a share of the track's width. */
function position(value: number): string {
  return `${((value + 1) / 2) * 100}%`;
}

function pairOf(row: CompareRow): string {
  return row.target === row.otherTarget ? row.target : `${row.target} vs ${row.otherTarget}`;
}

/**
 * The differences A − B as a forest plot: each row's point and 95% interval on one axis from
 * −100 to +100 percentage points around a zero line; a row Fisher's exact test says differs (the p it
 * prints, below 0.05) is marked and says so in words. The figures are text beside the bars (they wrap, never clip).
 */
export function DifferenceChart({ rows }: { rows: readonly CompareRow[] }) {
  if (rows.length === 0) return null;
  // One pair of targets: it is named once above the rows, not in each.
  const pairs = [...new Set(rows.map(pairOf))];
  const label = (row: CompareRow) => (pairs.length === 1 ? `${row.arm} · ${row.measure}` : `${pairOf(row)} · ${row.arm} · ${row.measure}`);
  return (
    <figure className="difference-chart" data-testid="difference-chart">
      <figcaption>
        {pairs.length === 1 ? <b>{pairs[0]}: </b> : null}
        <span className="muted">
          A − B in percentage points; bar = 95% interval, dot = difference, line = no difference. A row differs when Fisher&apos;s exact p, printed beside it,
          is below 0.05.
        </span>
      </figcaption>
      <ol className="difference-rows">
        {rows.map((row) => {
          const { difference, low, high } = row.comparison;
          const isDifferent = differs(row);
          return (
            <li
              key={`${row.target}/${row.otherTarget}/${row.arm}/${row.measure}`}
              className={`difference-row${isDifferent ? ' changed' : ''}`}
              data-testid="difference-row"
              data-differs={isDifferent}
              data-p={row.comparison.pTwoSided}
              data-difference={difference ?? undefined}
              data-low={low ?? undefined}
              data-high={high ?? undefined}
            >
              <span className="difference-label">{label(row)}</span>
              <span className="difference-track" aria-hidden="true">
                <span className="difference-zero" />
                {difference !== null && low !== null && high !== null ? (
                  <>
                    <span className="difference-interval" style={{ left: position(low), width: `${((high - low) / 2) * 100}%` }} />
                    <span className="difference-point" style={{ left: position(difference) }} />
                  </>
                ) : null}
              </span>
              <span className="difference-text">
                {difference === null
                  ? 'nothing to compare (n = 0 on one side)'
                  : `${formatDifference(row.comparison)} · p ${formatP(row.comparison.pTwoSided)} · ${isDifferent ? 'differs' : 'no clear difference'}`}
                <span className="muted">
                  {' '}
                  (A {formatRate(row.comparison.a)}, B {formatRate(row.comparison.b)})
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}
