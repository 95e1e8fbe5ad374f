import type { Arm, Judgement } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';

/**
 * The round's judge-graded rules, apart from the verdicts: a judge is a model, so its grades are
 * advisory, shown with their confidence, and never change what the arms above say.
 */
export function JudgedSection({ judged }: { judged: RoundState['judged'] }) {
  const rows = (['told', 'held'] as const).flatMap((arm) => (judged?.[arm] ?? []).map((judgement) => ({ arm, judgement })));
  if (rows.length === 0) return null;
  return (
    <section className="judged" data-testid="judged-advisory">
      <h3>Judged (advisory)</h3>
      <p className="muted">Graded after each arm by a judge model against the rule's rubric. Advisory: never blocks, never changes the verdicts above.</p>
      <table className="totals-table">
        <thead>
          <tr>
            <th>arm</th>
            <th>judge rule</th>
            <th>judged</th>
            <th>confidence</th>
            <th>evidence</th>
            <th>reason</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ arm, judgement }) => (
            <JudgedRow key={`${arm}-${judgement.rule}`} arm={arm} judgement={judgement} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function JudgedRow({ arm, judgement }: { arm: Arm; judgement: Judgement }) {
  const samples = judgement.samples.length;
  const agreeing = judgement.agreement === undefined ? undefined : Math.round(judgement.agreement * samples);
  return (
    <tr data-testid="judged-row" data-arm={arm} data-rule={judgement.rule} data-judged={judgement.verdict}>
      <td>{arm}</td>
      <td>
        {judgement.rule} {judgement.name}
      </td>
      <td>{judgement.verdict}</td>
      <td>
        {judgement.confidence === undefined ? '–' : judgement.confidence.toFixed(2)}
        {samples > 1 && agreeing !== undefined ? ` (${agreeing}/${samples} agree)` : ''}
      </td>
      <td>{judgement.evidence.map((item) => (item.line === undefined ? item.file : `${item.file}:${item.line}`)).join(', ') || '–'}</td>
      <td>
        {judgement.reason}
        <span className="muted"> · {judgement.model ?? judgement.judge}</span>
      </td>
    </tr>
  );
}
