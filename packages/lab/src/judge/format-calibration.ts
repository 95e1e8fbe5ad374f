import type { Agreement, CalibrationReport } from './calibrate.js';
import type { Kappa } from './kappa.js';

function kappaText(kappa: Kappa): string {
  if (kappa.kappa === null) return `κ undefined (n=${kappa.n}: ${kappa.n === 0 ? 'no graded cases' : 'one grade only on both sides'})`;
  return `κ = ${kappa.kappa.toFixed(2)} [${kappa.low!.toFixed(2)}, ${kappa.high!.toFixed(2)}] (n=${kappa.n}, observed agreement ${Math.round(kappa.observed! * 100)}%)`;
}

function matrixText(agreement: Agreement, rows: string, columns: string): string[] {
  const { confusion } = agreement;
  const width = Math.max(rows.length + 10, 20);
  return [
    `${''.padEnd(width)}${`${columns} violated`.padEnd(20)}${columns} clean`,
    `${`${rows} violated`.padEnd(width)}${String(confusion.bothViolated).padEnd(20)}${confusion.aViolatedBClean}`,
    `${`${rows} clean`.padEnd(width)}${String(confusion.aCleanBViolated).padEnd(20)}${confusion.bothClean}`,
  ];
}

/** The calibration as text: per rule and overall, kappa with its interval and the confusion matrix. */
export function formatCalibration(report: CalibrationReport): string {
  const lines: string[] = [];
  for (const rule of report.rules) {
    lines.push(`${rule.rule} ${rule.name}: ${rule.cases} cases, ${rule.judgeErrors} judge-error${rule.judgeErrors === 1 ? '' : 's'}`);
    lines.push(`  judge vs person: ${kappaText(rule.judgeVsPerson.kappa)}`);
    lines.push(...matrixText(rule.judgeVsPerson, 'person', 'judge').map((line) => `    ${line}`));
    if (rule.judgeVsDeterministic !== undefined) {
      lines.push(`  judge vs checked rule ${rule.judgeVsDeterministic.covers.join(', ')}: ${kappaText(rule.judgeVsDeterministic.kappa)}`);
      lines.push(...matrixText(rule.judgeVsDeterministic, 'check', 'judge').map((line) => `    ${line}`));
    }
    lines.push('');
  }
  lines.push(`Overall: ${kappaText(report.overall.kappa)}; ${report.overall.judgeErrors} judge-error${report.overall.judgeErrors === 1 ? '' : 's'} left out`);
  lines.push(...matrixText(report.overall, 'person', 'judge').map((line) => `  ${line}`));
  lines.push(
    '',
    "Cohen's kappa: agreement beyond chance (1 perfect, 0 chance level). 95% interval from the large-sample standard error; with few cases it is wide.",
  );
  return lines.join('\n');
}
