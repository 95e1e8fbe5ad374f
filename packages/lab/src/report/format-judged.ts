import type { Arm, JudgeEvidence, JudgeVerdict, Rate } from '@holdfast/core/contract';
import { toRate } from '@holdfast/core/stats';
import type { RoundState } from '../store/index.js';
import { formatRate } from './format-rate.js';
import { aligned, markdown } from './format-totals.js';
import { roundLabel } from './round-label.js';

/** One judge rule's grade of one arm of one round, as the reports show it. */
export interface JudgedRow {
  readonly roundId: string;
  readonly target: string;
  readonly task: string;
  readonly rep: number;
  readonly arm: Arm;
  readonly rule: string;
  readonly name: string;
  readonly verdict: JudgeVerdict;
  readonly confidence: number | null;
  readonly agreement: number | null;
  readonly samples: number;
  readonly reason: string;
  readonly evidence: readonly JudgeEvidence[];
  readonly judge: string;
}

/** Per target, arm and judge rule: how often the judge graded a violation, among the arms it could grade. */
export interface JudgedTotals {
  readonly target: string;
  readonly arm: Arm;
  readonly rule: string;
  readonly name: string;
  readonly violated: Rate;
  readonly judgeErrors: number;
  readonly meanConfidence: number | null;
}

export const JUDGED_LEGEND =
  "Judged (advisory): graded after the arm by a judge model against the rule's rubric. A judge is a model: these grades never block, never change a verdict above, and are not counted in it. " +
  'violated = arms the judge graded as breaking the rule, of those it could grade (Wilson 95%); judge-error = arms it could not grade.';

export function judgedRows(state: { readonly rounds: Iterable<RoundState> }): JudgedRow[] {
  const rows: JudgedRow[] = [];
  for (const round of state.rounds) {
    for (const arm of ['told', 'held'] as const) {
      for (const judgement of round.judged?.[arm] ?? []) {
        rows.push({
          roundId: round.roundId,
          target: round.target,
          task: round.task,
          rep: round.rep,
          arm,
          rule: judgement.rule,
          name: judgement.name,
          verdict: judgement.verdict,
          confidence: judgement.confidence ?? null,
          agreement: judgement.agreement ?? null,
          samples: judgement.samples.length,
          reason: judgement.reason,
          evidence: judgement.evidence,
          judge: judgement.judge,
        });
      }
    }
  }
  return rows;
}

export function judgedTotals(rows: readonly JudgedRow[]): JudgedTotals[] {
  const groups = new Map<string, JudgedRow[]>();
  for (const row of rows) {
    const key = `${row.target}\u0000${row.arm}\u0000${row.rule}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const graded = group.filter((row) => row.verdict !== 'judge-error');
    const confidences = graded.map((row) => row.confidence ?? 0);
    return {
      target: first.target,
      arm: first.arm,
      rule: first.rule,
      name: first.name,
      violated: toRate(graded.filter((row) => row.verdict === 'violated').length, graded.length),
      judgeErrors: group.length - graded.length,
      meanConfidence: confidences.length === 0 ? null : confidences.reduce((sum, value) => sum + value, 0) / confidences.length,
    };
  });
}

const TOTAL_COLUMNS = ['target', 'arm', 'judge rule', 'judged violated', 'judge-errors', 'mean confidence'] as const;
const ROW_COLUMNS = ['round', 'arm', 'judge rule', 'judged', 'confidence', 'evidence', 'reason'] as const;

function totalCells(total: JudgedTotals): string[] {
  return [
    total.target,
    total.arm,
    `${total.rule} ${total.name}`,
    formatRate(total.violated),
    String(total.judgeErrors),
    total.meanConfidence === null ? '–' : total.meanConfidence.toFixed(2),
  ];
}

function rowCells(row: JudgedRow): string[] {
  const confidence =
    row.confidence === null
      ? '–'
      : `${row.confidence.toFixed(2)}${row.samples > 1 && row.agreement !== null ? ` (${Math.round(row.agreement * row.samples)}/${row.samples} agree)` : ''}`;
  const evidence = row.evidence.map((item) => (item.line === undefined ? item.file : `${item.file}:${item.line}`)).join(', ') || '–';
  return [roundLabel(row), row.arm, `${row.rule} ${row.name}`, row.verdict, confidence, evidence, row.reason];
}

/** The advisory section of the terminal report; empty when the run has no judge grades. */
export function formatJudgedTable(rows: readonly JudgedRow[]): string {
  if (rows.length === 0) return '';
  return [
    'Judged (advisory):',
    aligned(TOTAL_COLUMNS, judgedTotals(rows).map(totalCells)),
    '',
    aligned(ROW_COLUMNS, rows.map(rowCells)),
    '',
    JUDGED_LEGEND,
  ].join('\n');
}

export function formatJudgedMarkdown(rows: readonly JudgedRow[]): string {
  if (rows.length === 0) return '';
  return [
    '## Judged (advisory)',
    '',
    markdown(TOTAL_COLUMNS, judgedTotals(rows).map(totalCells)),
    '',
    markdown(ROW_COLUMNS, rows.map(rowCells)),
    '',
    JUDGED_LEGEND,
  ].join('\n');
}
