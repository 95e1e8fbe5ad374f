import { useMemo, useState } from 'react';
import type { ApiRunFile, LiveRunSummary, Mode, Totals } from '@holdfast/core/browser';
import { bySignificance, compareTotals, defaultPairs, differs, shareTargets } from '../compare-totals.js';
import type { CompareRow, TargetPair } from '../compare-totals.js';
import type { ExportTable } from '../export-view.js';
import { formatRate } from '../format.js';
import { MODE_LABELS } from '../run-form.js';
import { useComparedRun } from '../use-compared-run.js';
import { rateFigure } from '../view-tables.js';
import { formatDifference, formatP } from './compare-format.js';
import { DifferenceChart } from './difference-chart.js';
import { ExportButtons } from './export-buttons.js';

function compareTable(rows: readonly CompareRow[], name: string, other: string): ExportTable {
  return {
    name: `compare-${name}-vs-${other}`,
    columns: ['target A', 'target B', 'arm', 'measure', `A (${name})`, `B (${other})`, 'difference A−B [95% CI]', 'Fisher exact p', 'differs (p < 0.05)'],
    rows: rows.map((row) => [
      row.target,
      row.otherTarget,
      row.arm,
      row.measure,
      rateFigure(row.comparison.a),
      rateFigure(row.comparison.b),
      {
        text: formatDifference(row.comparison),
        values: { difference: row.comparison.difference, low: row.comparison.low, high: row.comparison.high },
      },
      row.comparison.pTwoSided,
      differs(row),
    ]),
  };
}

interface CompareViewProps {
  /** This run: its name and totals (A). */
  name: string;
  /** This run's file, left out of the choices for B. */
  self: string | undefined;
  totals: Totals;
  /** How this run's rounds were played. */
  mode: Mode;
  runFiles: readonly ApiRunFile[];
  /** Runs of this server; a running one is offered by the file it writes. */
  liveRuns: readonly LiveRunSummary[];
  /** The other run (B), kept in the URL. */
  other: string | undefined;
  onOther: (name: string | undefined) => void;
}

/** This run against any other run, saved or still running (model A vs B, rulebook before/after), per target × arm × rule. */
export function CompareView({ name, self, totals, mode, runFiles, liveRuns, other, onOther }: CompareViewProps) {
  const running = liveRuns.filter((run) => run.running && run.name !== self);
  const version = running.find((run) => run.name === other)?.rounds ?? 'saved';
  const compared = useComparedRun(other, String(version));
  const otherTotals = compared.state === 'ready' ? compared.totals : undefined;
  const otherMode = compared.state === 'ready' ? compared.mode : undefined;
  const [chosenPair, setChosenPair] = useState<TargetPair | undefined>(undefined);
  const [changedOnly, setChangedOnly] = useState(false);
  const [sort, setSort] = useState<'order' | 'significance'>('order');
  const shared = otherTotals !== undefined && shareTargets(totals, otherTotals);
  const pairs = useMemo(() => {
    if (otherTotals === undefined) return [];
    if (shared || chosenPair === undefined) return defaultPairs(totals, otherTotals);
    return [chosenPair];
  }, [totals, otherTotals, shared, chosenPair]);
  const rows = useMemo(() => (otherTotals === undefined ? [] : compareTotals(totals, otherTotals, pairs)), [totals, otherTotals, pairs]);
  const shown = useMemo(() => {
    const kept = changedOnly ? rows.filter(differs) : rows;
    return sort === 'significance' ? bySignificance(kept) : kept;
  }, [rows, changedOnly, sort]);

  return (
    <section className="panel compare" data-testid="compare-view" aria-label="Compare runs">
      <div className="panel-head">
        <h2>Compare</h2>
        <label className="compare-picker">
          A: <b>{name}</b> against B:{' '}
          <select value={other ?? ''} onChange={(event) => onOther(event.target.value === '' ? undefined : event.target.value)} data-testid="compare-picker">
            <option value="">choose a run</option>
            {running.length > 0 ? (
              <optgroup label="running now">
                {running.map((run) => (
                  <option key={run.runId} value={run.name} data-testid="compare-running">
                    {run.name} (running, {run.rounds} rounds)
                  </option>
                ))}
              </optgroup>
            ) : null}
            <optgroup label="saved runs">
              {runFiles.map((file) => (
                <option key={file.name} value={file.name}>
                  {file.name}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        {rows.length > 0 && other !== undefined ? <ExportButtons what="comparison" table={() => compareTable(shown, name, other)} /> : null}
      </div>
      <p className="muted">
        Per target and arm, never pooled: told against told, held against held. Difference is A − B in percentage points with Newcombe's 95% interval; p is
        Fisher's exact two-sided test of equal rates, and a row differs when that p is below 0.05. A rule's row is the share of its attempted violations that
        landed; for a rule at warn, a second row gives the share the held arm let through as warned.
      </p>
      {otherMode !== undefined && otherMode !== mode ? (
        <p className="warning" role="note" data-testid="compare-modes" data-mode-a={mode} data-mode-b={otherMode}>
          <b>The two runs were played in different modes:</b> A in {mode} mode ({MODE_LABELS[mode]}), B in {otherMode} mode ({MODE_LABELS[otherMode]}). A rate
          means something else in each mode, so a difference below may be the mode&apos;s, not the model&apos;s or the rulebook&apos;s.
        </p>
      ) : null}
      {compared.state === 'failed' ? <p className="error">{compared.error}</p> : null}
      {compared.state === 'loading' ? <p className="muted">Reading {other}…</p> : null}
      {otherTotals !== undefined && !shared ? <PairPicker totals={totals} otherTotals={otherTotals} pair={pairs[0]} onPair={setChosenPair} /> : null}
      {rows.length > 0 ? (
        <>
          <div className="compare-controls">
            <label className="gate-toggle">
              <input type="checkbox" checked={changedOnly} onChange={(event) => setChangedOnly(event.target.checked)} data-testid="compare-changed-only" />
              differing only (Fisher&apos;s p &lt; 0.05)
            </label>
            <label>
              sort{' '}
              <select value={sort} onChange={(event) => setSort(event.target.value === 'significance' ? 'significance' : 'order')} data-testid="compare-sort">
                <option value="order">target, arm, measure</option>
                <option value="significance">most significant first</option>
              </select>
            </label>
            <output data-testid="compare-count" data-shown={shown.length} data-total={rows.length}>
              {shown.length} of {rows.length} rows
            </output>
          </div>
          {shown.length === 0 ? <p className="muted">No row differs: every Fisher&apos;s p is 0.05 or above.</p> : null}
          <DifferenceChart rows={shown} />
          <CompareTable rows={shown} />
        </>
      ) : null}
    </section>
  );
}

/** Runs with no target in common: which target of A is set against which of B. */
function PairPicker({
  totals,
  otherTotals,
  pair,
  onPair,
}: {
  totals: Totals;
  otherTotals: Totals;
  pair: TargetPair | undefined;
  onPair: (pair: TargetPair) => void;
}) {
  const targetsA = [...new Set(totals.arms.map((row) => row.target))];
  const targetsB = [...new Set(otherTotals.arms.map((row) => row.target))];
  if (pair === undefined) return null;
  return (
    <p className="compare-pair" data-testid="compare-pair">
      The runs share no target, so one target of each is compared, arm by arm:{' '}
      <label>
        A{' '}
        <select value={pair.a} onChange={(event) => onPair({ ...pair, a: event.target.value })} data-testid="compare-target-a">
          {targetsA.map((target) => (
            <option key={target}>{target}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        against B{' '}
        <select value={pair.b} onChange={(event) => onPair({ ...pair, b: event.target.value })} data-testid="compare-target-b">
          {targetsB.map((target) => (
            <option key={target}>{target}</option>
          ))}
        </select>
      </label>
    </p>
  );
}

function CompareTable({ rows }: { rows: readonly CompareRow[] }) {
  if (rows.length === 0) return null;
  return (
    <details className="compare-as-table">
      <summary>The differences as a table</summary>
      <div className="table-scroll">
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
              <th scope="col">verdict</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={`${row.target}/${row.otherTarget}/${row.arm}/${row.measure}`}
                data-testid="compare-row"
                data-measure={row.measure}
                data-target={row.target}
                data-arm={row.arm}
                data-p={row.comparison.pTwoSided}
                data-differs={differs(row)}
              >
                <th scope="row">{row.target === row.otherTarget ? row.target : `${row.target} vs ${row.otherTarget}`}</th>
                <td>{row.arm}</td>
                <td>{row.measure}</td>
                <td>{formatRate(row.comparison.a)}</td>
                <td>{formatRate(row.comparison.b)}</td>
                <td>{formatDifference(row.comparison)}</td>
                <td>{formatP(row.comparison.pTwoSided)}</td>
                <td>{differs(row) ? 'differs' : 'no clear difference'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
