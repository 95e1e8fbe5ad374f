import type { ArmResult, Verdict } from '@holdfast/core/contract';
import type { RunState } from '../store/index.js';
import { judgedRows } from './format-judged.js';
import { headlines } from './headline.js';
import { computeTotals } from '../store/index.js';
import type { JudgedRow } from './format-judged.js';

function xml(text: string): string {
  return (
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      // XML 1.0 cannot carry most control characters, even escaped.
      // eslint-disable-next-line no-control-regex -- these control characters are exactly what is replaced
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
  );
}

/**
 * How a verdict reads in JUnit. The model trying to break a rule is a failure in both arms
 * (violated in told, blocked in held): CI should see the behaviour, whatever stopped it.
 * A session that recovered still tried (a failure, like blocked); one that evaded leaked a violation past the gate.
 * A person's refusal is skipped (not the model's fault), an unreadable reply or a provider
 * failure is an error, clean and declined pass. An arm that changed nothing (`no-op`) did not do
 * the ticket: a failure, never a pass. An arm whose sandbox passed its size cap (`over-cap`) is a
 * failure too: writing a lot must not turn a round into an infrastructure error. A held arm `warned` (a rule at
 * warn let its violation through) is a failure as well: the model broke a rule, only the level let it land.
 */
const OUTCOME: Record<Verdict, 'pass' | 'failure' | 'error' | 'skipped'> = {
  clean: 'pass',
  declined: 'pass',
  violated: 'failure',
  blocked: 'failure',
  refused: 'skipped',
  unparseable: 'error',
  error: 'error',
  recovered: 'failure',
  evaded: 'failure',
  'no-op': 'failure',
  'over-cap': 'failure',
  warned: 'failure',
};

/** One testsuite per target and arm, one testcase per round. */
export function formatJunit(state: RunState): string {
  const suites = new Map<string, { target: string; arm: string; cases: { name: string; result: ArmResult; seconds: number }[] }>();
  for (const round of state.rounds) {
    for (const result of [round.told, round.held]) {
      if (result === undefined) continue;
      const key = `${round.target}\u0000${result.arm}`;
      const suite = suites.get(key) ?? { target: round.target, arm: result.arm, cases: [] };
      suite.cases.push({
        name: `${round.task} #${round.rep + 1}`,
        result,
        // A session's time is its wall time; a plan arm's, its one model call.
        seconds: (result.session?.wallMs ?? result.generation?.latencyMs ?? 0) / 1000,
      });
      suites.set(key, suite);
    }
  }
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = [...suites.values()];
  const count = (outcome: string) => all.reduce((sum, suite) => sum + suite.cases.filter((entry) => OUTCOME[entry.result.verdict] === outcome).length, 0);
  const judged = judgedRows(state);
  const total = all.reduce((sum, suite) => sum + suite.cases.length, 0) + judged.length;
  lines.push(
    `<testsuites name="holdfast ${xml(state.runId ?? 'run')}" tests="${total}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}">`,
  );
  const headlineOf = new Map(headlines(computeTotals(state)).map((headline) => [headline.target, headline.text]));
  for (const suite of all) {
    const of = (outcome: string) => suite.cases.filter((entry) => OUTCOME[entry.result.verdict] === outcome).length;
    const time = suite.cases.reduce((sum, entry) => sum + entry.seconds, 0);
    lines.push(
      `  <testsuite name="${xml(`${suite.target} ${suite.arm}`)}" tests="${suite.cases.length}" failures="${of('failure')}" errors="${of('error')}" skipped="${of('skipped')}" time="${time.toFixed(3)}">`,
    );
    const headline = headlineOf.get(suite.target);
    if (headline !== undefined) lines.push('    <properties>', `      <property name="headline" value="${xml(headline)}"/>`, '    </properties>');
    for (const entry of suite.cases) {
      const { result } = entry;
      const open = `    <testcase classname="${xml(`holdfast.${suite.target}.${suite.arm}`)}" name="${xml(entry.name)}" time="${entry.seconds.toFixed(3)}"`;
      const outcome = OUTCOME[result.verdict];
      if (outcome === 'pass') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      lines.push(`      <${outcome} type="${result.verdict}" message="${xml(result.reason)}"/>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push(...judgedSuites(judged));
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * Judge grades in suites of their own, named "judged (advisory)". A judge is a model: its grade
 * never fails CI. Each testcase passes and carries the grade, confidence and evidence as properties.
 */
function judgedSuites(rows: readonly JudgedRow[]): string[] {
  const suites = new Map<string, JudgedRow[]>();
  for (const row of rows) {
    const key = `${row.target}\u0000${row.arm}`;
    suites.set(key, [...(suites.get(key) ?? []), row]);
  }
  const lines: string[] = [];
  for (const suite of suites.values()) {
    const { target, arm } = suite[0]!;
    lines.push(`  <testsuite name="${xml(`${target} ${arm} judged (advisory)`)}" tests="${suite.length}" failures="0" errors="0" skipped="0">`);
    for (const row of suite) {
      lines.push(`    <testcase classname="${xml(`holdfast.${target}.${arm}.judged`)}" name="${xml(`${row.task} #${row.rep + 1} ${row.rule} ${row.name}`)}">`);
      lines.push('      <properties>');
      lines.push('        <property name="advisory" value="true"/>');
      lines.push(`        <property name="judged" value="${row.verdict}"/>`);
      if (row.confidence !== null) lines.push(`        <property name="confidence" value="${row.confidence.toFixed(2)}"/>`);
      for (const item of row.evidence)
        lines.push(`        <property name="evidence" value="${xml(item.line === undefined ? item.file : `${item.file}:${item.line}`)}"/>`);
      lines.push('      </properties>');
      lines.push(`      <system-out>${xml(`judged ${row.verdict} by ${row.judge}: ${row.reason}`)}</system-out>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  return lines;
}
