import { FINDINGS_PER_RULE } from './verify.js';
import type { VerifyFinding, VerifyReport } from './verify.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function where(finding: VerifyFinding): string {
  if (finding.path === undefined) return '';
  return `\`${cell(finding.path)}${finding.line === undefined ? '' : `:${finding.line}`}\``;
}

/** The report as Markdown for a pull request comment or a job summary: the verdict, each commit, every finding. */
export function verifyMarkdown(report: VerifyReport): string {
  const lines = [
    `## holdfast verify: ${report.violations === 0 ? 'clean' : `${report.violations} violation${report.violations === 1 ? '' : 's'}`}${report.warnings === 0 ? '' : `, ${report.warnings} warning${report.warnings === 1 ? '' : 's'} (warn-level rules, not failing)`}`,
    '',
    `Range \`${report.base.slice(0, 12)}..${report.head.slice(0, 12)}\`, ${report.commits.length} commit${report.commits.length === 1 ? '' : 's'}, ` +
      `rulebook \`${cell(report.rulebookPath)}\` as of the base (${report.rulebook.rules.map((rule) => rule.id).join(', ')}).`,
    '',
    '| change | files | verdict |',
    '| --- | --- | --- |',
  ];
  const verdict = ({ findings, unlisted }: { findings: readonly VerifyFinding[]; unlisted: number }) =>
    findings.length + unlisted === 0
      ? 'clean'
      : [
          ...new Set(findings.map((finding) => `${finding.rule} ${finding.name}${finding.level === 'warn' ? ' (warn)' : ''}`)),
          ...(unlisted > 0 ? [`${unlisted} more not listed`] : []),
        ].join(', ');
  for (const commit of report.commits) {
    lines.push(`| \`${commit.commit.slice(0, 12)}\` ${cell(commit.subject)} | ${commit.changes} | ${verdict(commit)} |`);
  }
  lines.push(`| final tree against \`${report.mergeBase.slice(0, 12)}\` | ${report.tree.changes} | ${verdict(report.tree)} |`);
  const all = [
    ...report.commits.flatMap((commit) => commit.findings.map((finding) => ({ finding, at: `\`${commit.commit.slice(0, 12)}\`` }))),
    ...report.tree.findings.map((finding) => ({ finding, at: 'final tree' })),
  ];
  if (all.length > 0) {
    lines.push('', '### Findings', '');
    for (const { finding, at } of all)
      lines.push(`- ${finding.level === 'warn' ? 'warn: ' : ''}**${finding.rule} ${finding.name}** ${where(finding)} (${at}): ${cell(finding.detail)}`);
    for (const more of report.unlisted)
      lines.push(`- **${more.rule} ${more.name}**: ${more.count} more finding(s), not listed (the first ${FINDINGS_PER_RULE} are)`);
  }
  if (report.notJudged.length > 0) {
    lines.push('', '### Not judged here', '');
    for (const note of report.notJudged) lines.push(`- ${cell(note)}`);
  }
  return `${lines.join('\n')}\n`;
}
