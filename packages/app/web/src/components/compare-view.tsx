import { useEffect, useMemo, useState } from 'react';
import type { ApiRunFile, Totals } from '@holdfast/core/browser';
import type { RateComparison } from '@holdfast/core/browser';
import { reduceRunEvents } from '@holdfast/lab/browser';
import { fetchSavedRun } from '../api-client.js';
import { compareTotals } from '../compare-totals.js';
import type { CompareRow } from '../compare-totals.js';
import type { ExportTable } from '../export-view.js';
import { formatRate } from '../format.js';
import { ExportButtons } from './export-buttons.js';

/** `+80 pp [45–95]`: the difference A − B in percentage points with its 95% interval. */
export function formatDifference(comparison: RateComparison): string {
  if (comparison.difference === null || comparison.low === null || comparison.high === null) return '–';
  const points = (value: number) => Math.round(value * 100);
  const sign = points(comparison.difference) > 0 ? '+' : '';
  return `${sign}${points(comparison.difference)} pp [${points(comparison.low)}–${points(comparison.high)}]`;
}

function formatP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

function compareTable(rows: readonly CompareRow[], name: string, other: string): ExportTable {
  return {
    name: `compare-${name}-vs-${other}`,
    columns: ['target', 'arm', 'measure', `A (${name})`, `B (${other})`, 'difference A−B [95% CI]', 'Fisher exact p'],
    rows: rows.map((row) => [
      row.target,
      row.arm,
      row.measure,
      formatRate(row.comparison.a),
      formatRate(row.comparison.b),
      formatDifference(row.comparison),
      formatP(row.comparison.pTwoSided),
    ]),
  };
}

interface CompareViewProps {
  /** This run: its name and totals (A). */
  name: string;
  totals: Totals;
  runFiles: readonly ApiRunFile[];
  /** The other run (B), kept in the URL. */
  other: string | undefined;
  onOther: (name: string | undefined) => void;
}

/** This run against another saved run (model A vs B, rulebook before/after), per target × arm × rule. */
export function CompareView({ name, totals, runFiles, other, onOther }: CompareViewProps) {
  const [otherTotals, setOtherTotals] = useState<Totals | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Another run chosen: what was shown for the last one goes at once, in this render.
  const [shownFor, setShownFor] = useState(other);
  if (shownFor !== other) {
    setShownFor(other);
    setOtherTotals(undefined);
    setError(undefined);
  }
  useEffect(() => {
    if (other === undefined) return;
    let disposed = false;
    fetchSavedRun(other, 'summary').then(
      (saved) => {
        if (disposed) return;
        const state = reduceRunEvents(saved.events);
        if (state.totals === undefined) setError(`${other} has no totals to compare.`);
        else setOtherTotals(state.totals);
      },
      (failure: unknown) => {
        if (!disposed) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      disposed = true;
    };
  }, [other]);
  const rows = useMemo(() => (otherTotals === undefined ? [] : compareTotals(totals, otherTotals)), [totals, otherTotals]);

  return (
    <section className="panel compare" data-testid="compare-view" aria-label="Compare runs">
      <div className="panel-head">
        <h2>Compare</h2>
        <label>
          A: <b>{name}</b> against B:{' '}
          <select value={other ?? ''} onChange={(event) => onOther(event.target.value === '' ? undefined : event.target.value)} data-testid="compare-picker">
            <option value="">choose a saved run</option>
            {runFiles.map((file) => (
              <option key={file.name} value={file.name}>
                {file.name}
              </option>
            ))}
          </select>
        </label>
        {rows.length > 0 && other !== undefined ? <ExportButtons what="comparison" table={() => compareTable(rows, name, other)} /> : null}
      </div>
      <p className="muted">
        Per target and arm, never pooled. Difference is A − B in percentage points with Newcombe's 95% interval; p is Fisher's exact two-sided test of equal
        rates. A rule's row is the share of its attempted violations that landed.
      </p>
      {error !== undefined ? <p className="error">{error}</p> : null}
      {other !== undefined && otherTotals !== undefined && rows.length === 0 ? <p className="muted">The two runs share no target and arm.</p> : null}
      {rows.length > 0 ? (
        <table className="compare-table" data-testid="compare-table">
          <thead>
            <tr>
              <th scope="col">target</th>
              <th scope="col">arm</th>
              <th scope="col">measure</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
              <th scope="col">A − B [95% CI]</th>
              <th scope="col">p</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={`${row.target}/${row.arm}/${row.measure}`}
                data-testid="compare-row"
                data-measure={row.measure}
                data-target={row.target}
                data-arm={row.arm}
                data-p={row.comparison.pTwoSided}
              >
                <th scope="row">{row.target}</th>
                <td>{row.arm}</td>
                <td>{row.measure}</td>
                <td>{formatRate(row.comparison.a)}</td>
                <td>{formatRate(row.comparison.b)}</td>
                <td>{formatDifference(row.comparison)}</td>
                <td>{formatP(row.comparison.pTwoSided)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
