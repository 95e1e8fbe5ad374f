import type { Arm, Verdict } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { VERDICT_LABEL, VERDICT_ORDER } from '../verdict-style.js';

const ARMS: readonly Arm[] = ['told', 'held'];

export interface StripCountRow {
  readonly target: string;
  readonly arm: Arm;
  /** Rounds of this target whose arm has finished, by verdict. */
  readonly verdicts: Readonly<Partial<Record<Verdict, number>>>;
  /** Rounds of this target whose arm has not finished. */
  readonly running: number;
}

/** What the strip draws, counted: per target and arm, the rounds with each verdict. */
export function stripCounts(rounds: readonly RoundState[], targets: readonly string[]): StripCountRow[] {
  const order = [...new Set([...targets, ...rounds.map((round) => round.target)])];
  const rows = new Map<string, { target: string; arm: Arm; verdicts: Partial<Record<Verdict, number>>; running: number }>();
  for (const target of order) for (const arm of ARMS) rows.set(`${target}\u0000${arm}`, { target, arm, verdicts: {}, running: 0 });
  for (const round of rounds) {
    for (const arm of ARMS) {
      const row = rows.get(`${round.target}\u0000${arm}`);
      if (row === undefined) continue;
      const verdict = round[arm]?.verdict;
      if (verdict === undefined) row.running += 1;
      else row.verdicts[verdict] = (row.verdicts[verdict] ?? 0) + 1;
    }
  }
  return [...rows.values()];
}

/** One sentence for the strip's canvas: the same counts for a screen reader. */
export function stripSummary(rows: readonly StripCountRow[], total: number): string {
  const parts = rows.map((row) => {
    const counts = VERDICT_ORDER.filter((verdict) => (row.verdicts[verdict] ?? 0) > 0).map((verdict) => `${row.verdicts[verdict]} ${verdict}`);
    if (row.running > 0) counts.push(`${row.running} running`);
    return `${row.target} ${row.arm}: ${counts.length > 0 ? counts.join(', ') : 'no rounds'}`;
  });
  return `Verdicts of ${total} rounds. ${parts.join('. ')}.`;
}

interface StripTableProps {
  rows: readonly StripCountRow[];
  /** Shows the rounds behind a count in the round list. */
  onFilter: (target: string, arm: Arm, verdict: Verdict) => void;
}

/** The strip as a table (its text alternative): each count opens those rounds in the list. */
export function StripTable({ rows, onFilter }: StripTableProps) {
  const verdicts = VERDICT_ORDER.filter((verdict) => rows.some((row) => (row.verdicts[verdict] ?? 0) > 0));
  return (
    <table className="strip-table" data-testid="strip-table">
      <caption className="sr-only">Rounds per target and arm, by verdict</caption>
      <thead>
        <tr>
          <th scope="col">target</th>
          <th scope="col">arm</th>
          {verdicts.map((verdict) => (
            <th key={verdict} scope="col">
              {VERDICT_LABEL[verdict]}
            </th>
          ))}
          <th scope="col">running</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.target}/${row.arm}`}>
            <th scope="row">{row.target}</th>
            <td>{row.arm}</td>
            {verdicts.map((verdict) => {
              const count = row.verdicts[verdict] ?? 0;
              return (
                <td key={verdict} data-testid={`strip-count-${row.target}-${row.arm}-${verdict}`} data-value={count}>
                  {count === 0 ? (
                    '0'
                  ) : (
                    <button
                      type="button"
                      className="link"
                      aria-label={`${count} ${verdict} rounds of ${row.target}, ${row.arm} arm: show them`}
                      onClick={() => onFilter(row.target, row.arm, verdict)}
                    >
                      {count}
                    </button>
                  )}
                </td>
              );
            })}
            <td>{row.running}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
