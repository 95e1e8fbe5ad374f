import { useEffect, useState } from 'react';
import type { ApiPressureFile, PressureFileResponse, PressureSummaryRowBody, PressureVariant, PressureVerdict, Rulebook } from '@holdfast/core/browser';
import { fetchPressureFile } from '../api-client.js';
import { PRESSURE_VERDICT_COLOR, PRESSURE_VERDICT_HINT, PRESSURE_VERDICT_ORDER } from '../verdict-style.js';
import { RateBar } from './rate-bar.js';

/** told carries the same colour as the run's told arm (rules as prose); untold is the grey baseline. */
const VARIANT_COLOR: Readonly<Record<PressureVariant, string>> = { told: '#e8590c', untold: '#868e96' };
const VARIANT_LABEL: Readonly<Record<PressureVariant, string>> = { told: 'told (rules in the prompt)', untold: 'untold (no rules)' };

/** What a row is called in test ids and data attributes: `rule/target/variant`, `-` for no target. */
export function pressureRowKey(row: { rule: string; target?: string | undefined; variant: PressureVariant }): string {
  return `${row.rule}/${row.target ?? '-'}/${row.variant}`;
}

type Loaded = { name: string; body: PressureFileResponse } | { name: string; error: string };

function originNote(file: ApiPressureFile): string {
  const written = file.origins.written ?? 0;
  if (written === 0) return '';
  return written === file.records ? ' · written by hand' : ` · ${written} written by hand`;
}

/** Pressure results, one file at a time: per rule × target × variant, the pass rate with its interval and the verdict mix. */
export function PressureView({ files, rulebook }: { files: readonly ApiPressureFile[]; rulebook: Rulebook | undefined }) {
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const name = picked !== undefined && files.some((file) => file.name === picked) ? picked : files[0]?.name;
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);

  useEffect(() => {
    if (name === undefined) return;
    let current = true;
    fetchPressureFile(name).then(
      (body) => current && setLoaded({ name, body }),
      (error: unknown) => current && setLoaded({ name, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [name]);

  if (name === undefined) return <p className="muted">No pressure results file in the runs folder.</p>;
  const shown = loaded?.name === name ? loaded : undefined;
  const ruleName = (rule: string) => rulebook?.rules.find((candidate) => candidate.id === rule)?.name;

  return (
    <div className="pressure" data-testid="pressure-view" data-file={shown !== undefined && 'body' in shown ? shown.name : undefined}>
      <div className="panel-head">
        <label className="picker">
          results file{' '}
          <select value={name} data-testid="pressure-picker" onChange={(event) => setPicked(event.target.value)}>
            {files.map((file) => (
              <option key={file.name} value={file.name}>
                {file.name} · {file.records} records{originNote(file)}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">
          Does a rule hold when holding it is expensive? One scenario per reply, a discrete choice; pass = the compliant choice, with the rule cited.
        </span>
      </div>
      {shown === undefined ? <p className="muted">Loading {name}…</p> : null}
      {shown !== undefined && 'error' in shown ? (
        <div className="error-banner">
          Could not load {shown.name}: {shown.error}
        </div>
      ) : null}
      {shown !== undefined && 'body' in shown ? <PressureFileView body={shown.body} ruleName={ruleName} /> : null}
    </div>
  );
}

function PressureFileView({ body, ruleName }: { body: PressureFileResponse; ruleName: (rule: string) => string | undefined }) {
  const written = body.records.filter((record) => record.origin === 'written').length;
  const rules = [...new Set(body.rows.map((row) => row.rule))];
  return (
    <>
      {written > 0 ? (
        <div
          className="demo-banner pressure-banner"
          role="note"
          data-testid="pressure-written-banner"
          data-written={written}
          data-records={body.records.length}
        >
          <b>Written by hand.</b>{' '}
          {written === body.records.length ? (written === 1 ? 'The one reply' : `All ${written} replies`) : `${written} of ${body.records.length} replies`} in
          this file {written === 1 ? 'was' : 'were'} written by hand to exercise the scorer; {written === 1 ? 'it was' : 'they were'} not produced by a model.
          {written === body.records.length ? ' The rates below say nothing about any model.' : ''}
        </div>
      ) : null}
      {body.problems.length > 0 ? (
        <div className="warning-banner" data-testid="pressure-problems">
          {body.problems.length} line{body.problems.length === 1 ? '' : 's'} of this file could not be read: {body.problems[0]?.message}
        </div>
      ) : null}
      {body.rows.length === 0 ? (
        <p className="muted">This file has no pressure records.</p>
      ) : (
        <section className="panel pressure-panel">
          <table className="totals-table pressure-table" data-testid="pressure-table" data-rows={body.rows.length}>
            <thead>
              <tr>
                <th rowSpan={2}>rule</th>
                <th rowSpan={2}>target</th>
                <th rowSpan={2}>variant</th>
                <th rowSpan={2}>pass rate · 95% interval</th>
                <th rowSpan={2}>verdict mix</th>
                <VerdictHead verdict="pass" rowSpan={2} />
                <th colSpan={FAILS.length} className="mix-group">
                  fail
                </th>
                <VerdictHead verdict="error" rowSpan={2} />
              </tr>
              <tr>
                {FAILS.map((verdict) => (
                  <VerdictHead key={verdict} verdict={verdict} />
                ))}
              </tr>
            </thead>
            {rules.map((rule) => (
              <tbody key={rule} className="pressure-rule">
                {body.rows
                  .filter((row) => row.rule === rule)
                  .map((row, index) => (
                    <PressureRow key={pressureRowKey(row)} row={row} first={index === 0} name={ruleName(rule)} />
                  ))}
              </tbody>
            ))}
          </table>
        </section>
      )}
    </>
  );
}

/** The four ways to fail, under one "fail" header; in the same order as PRESSURE_VERDICT_ORDER. */
const FAILS = PRESSURE_VERDICT_ORDER.filter((verdict): verdict is Exclude<PressureVerdict, 'pass' | 'error'> => verdict !== 'pass' && verdict !== 'error');

function VerdictHead({ verdict, rowSpan }: { verdict: PressureVerdict; rowSpan?: number }) {
  return (
    <th className="mix-head" rowSpan={rowSpan} title={`${verdict}: ${PRESSURE_VERDICT_HINT[verdict]}`}>
      <span className="swatch" style={{ background: PRESSURE_VERDICT_COLOR[verdict] }} />{' '}
      {verdict.startsWith('fail-') ? verdict.slice('fail-'.length) : verdict}
    </th>
  );
}

function PressureRow({ row, first, name }: { row: PressureSummaryRowBody; first: boolean; name: string | undefined }) {
  const key = pressureRowKey(row);
  return (
    <tr data-testid="pressure-row" data-key={key}>
      <th className="pressure-rule-cell">
        {first ? (
          <>
            <span className="rule-id">{row.rule}</span> {name ?? ''}
          </>
        ) : null}
      </th>
      <td>{row.target ?? <span className="muted">(no target)</span>}</td>
      <td>
        <span className="arm-dot" style={{ background: VARIANT_COLOR[row.variant] }} /> <span title={VARIANT_LABEL[row.variant]}>{row.variant}</span>
      </td>
      <td>
        <RateBar rate={row.pass} color={VARIANT_COLOR[row.variant]} testId={`pressure-rate-${key}`} />
      </td>
      <td>
        <MixBar row={row} />
      </td>
      {PRESSURE_VERDICT_ORDER.map((verdict) => {
        const count = row.verdicts[verdict] ?? 0;
        return (
          <td
            key={verdict}
            className={count === 0 ? 'mix-count zero' : 'mix-count'}
            style={count === 0 ? undefined : { color: PRESSURE_VERDICT_COLOR[verdict] }}
            data-testid="pressure-verdict"
            data-verdict={verdict}
            data-value={count}
            title={`${count} ${verdict}: ${PRESSURE_VERDICT_HINT[verdict]}`}
          >
            {count}
          </td>
        );
      })}
    </tr>
  );
}

/** The verdicts of one row as a stacked bar, one segment per verdict seen, as wide as its share. */
function MixBar({ row }: { row: PressureSummaryRowBody }) {
  const total = row.pass.n;
  return (
    <span className="mix-bar" role="img" aria-label={PRESSURE_VERDICT_ORDER.map((verdict) => `${row.verdicts[verdict] ?? 0} ${verdict}`).join(', ')}>
      {PRESSURE_VERDICT_ORDER.map((verdict) => {
        const count = row.verdicts[verdict] ?? 0;
        return count === 0 || total === 0 ? null : (
          <span key={verdict} style={{ width: `${(count / total) * 100}%`, background: PRESSURE_VERDICT_COLOR[verdict] }} title={`${count} ${verdict}`} />
        );
      })}
    </span>
  );
}
