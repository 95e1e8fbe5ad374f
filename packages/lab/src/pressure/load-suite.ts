import type { PressureFixture, Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { readAgentFiles } from './agent-files.js';
import type { AgentDefinition } from './agent-files.js';
import { readAgentsFile, readExtensionsFile, readFixtureSources, readSuiteFile, readUncoveredFile } from './fixture-files.js';
import { lintContextFrom } from './lint-context.js';
import { lintFixtureSet } from './lint-set.js';
import type { UnboundFixture } from './lint-set.js';
import type { LintWarning, Refusal } from './refusal.js';
import { formatRuleRef, pressureRules } from './rule-ref.js';
import type { PressureRule } from './rule-ref.js';
import type { ScoredRule } from './score.js';

/** A fixtures folder read against a rulebook: what passed lint, what was refused, the pinned debt. */
export interface PressureSuite {
  readonly dir: string;
  /** The rulebook measured: the one given, else the suite's own (`suite.json`); undefined when there is neither. */
  readonly rulebook: Rulebook | undefined;
  /** The rules coverage counts: the measured rulebook's, or with none, one per rule the fixtures name. */
  readonly rules: readonly PressureRule[];
  readonly fixtures: readonly PressureFixture[];
  readonly refusals: readonly Refusal[];
  readonly warnings: readonly LintWarning[];
  /** Sound fixtures about rules the measured rulebook does not have (bound by meaning, not by id). */
  readonly unbound: readonly UnboundFixture[];
  /** Fixture id → the measured rule it puts under pressure, as a reply must cite it. */
  readonly boundRules: ReadonlyMap<string, ScoredRule>;
  /** Agents defined by Markdown agent files (`--agents DIR`); empty without one. */
  readonly agents: readonly AgentDefinition[];
  /** The pinned debt list (`uncovered.json`); undefined when the folder has none. */
  readonly uncovered: readonly string[] | undefined;
}

export interface LoadPressureSuiteOptions {
  readonly dir: string;
  /** A rulebook already loaded, or a file to load; the suite's own (`suite.json`), else none, when neither is given. */
  readonly rulebook?: Rulebook;
  readonly rulebookFile?: string;
  /** A folder of Markdown agent files that declare the suite's agents and define their prompts. */
  readonly agentsDir?: string;
}

/**
 * Reads and lints a suite against the rulebook measured. Fixtures written against another
 * rulebook (`suite.json` names it) bind to the measured one by what each rule's check means, or
 * by a mapping (`suite.json`'s `bind`, the rulebook's `pressureBindings`); with no rulebook at all
 * a fixture's rule reference is what a reply cites, so a numbered suite lints and scores alone.
 */
export async function loadPressureSuite(options: LoadPressureSuiteOptions): Promise<PressureSuite> {
  const suiteFile = await readSuiteFile(options.dir);
  const home = suiteFile.rulebook === undefined ? undefined : await loadRulebook(suiteFile.rulebook);
  const given = options.rulebook ?? (options.rulebookFile === undefined ? undefined : await loadRulebook(options.rulebookFile));
  const rulebook = given ?? home;
  const [sources, agents, uncovered, extensions, agentFiles] = await Promise.all([
    readFixtureSources(options.dir),
    readAgentsFile(options.dir),
    readUncoveredFile(options.dir),
    readExtensionsFile(options.dir),
    options.agentsDir === undefined ? Promise.resolve([]) : readAgentFiles(options.agentsDir),
  ]);
  const context = lintContextFrom(rulebook, {
    agents,
    agentFiles,
    pressureExtensions: extensions.pressures,
    ...(home === undefined || home === rulebook ? {} : { home }),
    mapping: { ...suiteFile.bind, ...(rulebook?.pressureBindings ?? {}) },
  });
  const lint = lintFixtureSet(sources, context);
  return {
    dir: options.dir,
    rulebook,
    rules: rulebook === undefined ? labelRules(lint.fixtures) : pressureRules(rulebook),
    fixtures: lint.fixtures,
    refusals: lint.refusals,
    warnings: lint.warnings,
    unbound: lint.unbound,
    boundRules: lint.boundRules,
    agents: agentFiles,
    uncovered,
  };
}

function labelRules(fixtures: readonly PressureFixture[]): PressureRule[] {
  const refs = [...new Set(fixtures.map((fixture) => fixture.rule))].sort((a, b) => String(a).localeCompare(String(b), 'en', { numeric: true }));
  return refs.map((ref) => ({ id: formatRuleRef(ref), name: formatRuleRef(ref), number: typeof ref === 'number' ? ref : undefined, prose: '' }));
}

/** The rule a suite's fixture puts under pressure, as the measured rulebook names it (or its reference, with none). */
export function suiteRuleOf(suite: PressureSuite, fixture: PressureFixture): ScoredRule {
  const bound = suite.boundRules.get(fixture.id);
  if (bound !== undefined) return bound;
  const id = formatRuleRef(fixture.rule);
  return { id, name: id, number: typeof fixture.rule === 'number' ? fixture.rule : undefined };
}
