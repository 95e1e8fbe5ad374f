import type { VerifyFinding, VerifyReport } from './verify.js';

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

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly findings: readonly VerifyFinding[];
}

/**
 * The report as JUnit XML: one suite per commit and one for the final tree, one test case per rule,
 * failed when a rule that blocks was broken there (every finding in the failure's text); a rule at warn
 * broken there passes with its findings in the case's output, marked warn.
 */
export function verifyJunit(report: VerifyReport): string {
  const suites: { name: string; cases: Case[] }[] = [];
  const casesOf = (classname: string, findings: readonly VerifyFinding[]): Case[] =>
    report.rulebook.rules.map((rule) => ({ classname, name: `${rule.id} ${rule.name}`, findings: findings.filter((finding) => finding.rule === rule.id) }));
  for (const commit of report.commits) {
    const name = `commit ${commit.commit.slice(0, 12)} ${commit.subject}`;
    suites.push({ name, cases: casesOf(name, commit.findings) });
  }
  suites.push({ name: 'final tree', cases: casesOf('final tree', report.tree.findings) });
  const failed = (each: Case) => each.findings.some((finding) => finding.level !== 'warn');
  const failures = suites.reduce((sum, suite) => sum + suite.cases.filter(failed).length, 0);
  const tests = suites.reduce((sum, suite) => sum + suite.cases.length, 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="holdfast verify" tests="${tests}" failures="${failures}">`];
  for (const suite of suites) {
    lines.push(`  <testsuite name="${xml(suite.name)}" tests="${suite.cases.length}" failures="${suite.cases.filter(failed).length}">`);
    for (const each of suite.cases) {
      const head = `    <testcase classname="${xml(each.classname)}" name="${xml(each.name)}"`;
      const [first] = each.findings;
      if (first === undefined) {
        lines.push(`${head}/>`);
        continue;
      }
      lines.push(`${head}>`);
      const text = each.findings.map((finding) => finding.detail).join('\n');
      // A rule at warn fails no test: its findings are the case's output, marked warn.
      if (first.level === 'warn') lines.push(`      <system-out>${xml(`warn: ${text}`)}</system-out>`);
      else lines.push(`      <failure message="${xml(first.detail)}" type="${xml(first.rule)}">${xml(text)}</failure>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
