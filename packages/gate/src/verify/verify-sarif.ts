import { packageVersion } from '@holdfast/core/command';
import type { VerifyFinding, VerifyReport } from './verify.js';

/** The SARIF 2.1.0 log of a verify run, typed only as far as it is written here. */
export interface SarifLog {
  readonly $schema: string;
  readonly version: '2.1.0';
  readonly runs: readonly SarifRun[];
}

interface SarifRun {
  readonly tool: { readonly driver: SarifDriver };
  readonly results: readonly SarifResult[];
  readonly properties: Record<string, unknown>;
}

interface SarifDriver {
  readonly name: string;
  readonly version?: string;
  readonly rules: readonly SarifRule[];
}

interface SarifRule {
  readonly id: string;
  readonly name: string;
  readonly shortDescription: { readonly text: string };
  readonly fullDescription: { readonly text: string };
  readonly help: { readonly text: string };
  readonly defaultConfiguration: { readonly level: SarifLevel };
}

/** `error` for a rule that blocks, `warning` for one at `enforcement: warn` (reported, fails nothing). */
type SarifLevel = 'error' | 'warning';

interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex?: number;
  readonly level: SarifLevel;
  readonly message: { readonly text: string };
  readonly locations: readonly object[];
  readonly properties: Record<string, unknown>;
}

/** A repository path as a relative URI reference: each segment percent-encoded, the slashes kept. */
function pathUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function locationsOf(finding: VerifyFinding): object[] {
  if (finding.path === undefined) return [];
  return [
    {
      physicalLocation: {
        artifactLocation: { uri: pathUri(finding.path), uriBaseId: '%SRCROOT%' },
        ...(finding.line === undefined ? {} : { region: { startLine: finding.line } }),
      },
    },
  ];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The report as SARIF 2.1.0 for GitHub code scanning: one result per broken rule per change (each
 * commit's own, then the final tree's), its rule described in tool.driver.rules from the rulebook as
 * of the base. A rule that blocks is an `error`; a rule at `enforcement: warn` (drafted, not yet promoted)
 * is a `warning`, so code scanning shows it without failing the check.
 */
export function verifySarif(report: VerifyReport): SarifLog {
  const rules: SarifRule[] = report.rulebook.rules.map((rule) => ({
    id: rule.id,
    name: rule.name,
    shortDescription: { text: `${rule.id} ${rule.name}` },
    fullDescription: { text: oneLine(rule.prose) },
    help: { text: rule.prose.trim() },
    defaultConfiguration: { level: rule.enforcement === 'warn' ? 'warning' : 'error' },
  }));
  const index = new Map(rules.map((rule, position) => [rule.id, position]));
  const result = (finding: VerifyFinding, where: string, properties: Record<string, unknown>): SarifResult => {
    const ruleIndex = index.get(finding.rule);
    return {
      ruleId: finding.rule,
      ...(ruleIndex === undefined ? {} : { ruleIndex }),
      level: finding.level === 'warn' ? 'warning' : 'error',
      message: { text: `${finding.detail} (${where})` },
      locations: locationsOf(finding),
      properties,
    };
  };
  const results: SarifResult[] = [];
  for (const commit of report.commits) {
    for (const finding of commit.findings) {
      results.push(result(finding, `commit ${commit.commit.slice(0, 12)} "${commit.subject}"`, { commit: commit.commit }));
    }
  }
  for (const finding of report.tree.findings) {
    results.push(result(finding, `the final tree against ${report.mergeBase.slice(0, 12)}`, { commit: report.head, tree: true }));
  }
  const version = packageVersion();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'holdfast', ...(version === '' ? {} : { version }), rules } },
        results,
        properties: {
          base: report.base,
          head: report.head,
          mergeBase: report.mergeBase,
          rulebook: report.rulebookPath,
          commits: report.commits.length,
          notJudged: report.notJudged,
          violations: report.violations,
          warnings: report.warnings,
          unlisted: report.unlisted,
        },
      },
    ],
  };
}
