import type { PressureFixture, Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { readAgentFiles } from './agent-files.js';
import type { AgentDefinition } from './agent-files.js';
import { readAgentsFile, readExtensionsFile, readFixtureSources, readUncoveredFile } from './fixture-files.js';
import { lintContextFrom } from './lint-context.js';
import { lintFixtureSet } from './lint-set.js';
import type { LintWarning, Refusal } from './refusal.js';

/** A fixtures folder read against a rulebook: what passed lint, what was refused, the pinned debt. */
export interface PressureSuite {
  readonly dir: string;
  readonly rulebook: Rulebook;
  readonly fixtures: readonly PressureFixture[];
  readonly refusals: readonly Refusal[];
  readonly warnings: readonly LintWarning[];
  /** Agents defined by Markdown agent files (`--agents DIR`); empty without one. */
  readonly agents: readonly AgentDefinition[];
  /** The pinned debt list (`uncovered.json`); undefined when the folder has none. */
  readonly uncovered: readonly string[] | undefined;
}

export interface LoadPressureSuiteOptions {
  readonly dir: string;
  /** A rulebook already loaded, or a file to load; the shipped default when neither is given. */
  readonly rulebook?: Rulebook;
  readonly rulebookFile?: string;
  /** A folder of Markdown agent files that declare the suite's agents and define their prompts. */
  readonly agentsDir?: string;
}

export async function loadPressureSuite(options: LoadPressureSuiteOptions): Promise<PressureSuite> {
  const rulebook = options.rulebook ?? (await loadRulebook(options.rulebookFile));
  const [sources, agents, uncovered, extensions, agentFiles] = await Promise.all([
    readFixtureSources(options.dir),
    readAgentsFile(options.dir),
    readUncoveredFile(options.dir),
    readExtensionsFile(options.dir),
    options.agentsDir === undefined ? Promise.resolve([]) : readAgentFiles(options.agentsDir),
  ]);
  const context = lintContextFrom(rulebook, { agents, agentFiles, pressureExtensions: extensions.pressures });
  const { fixtures, refusals, warnings } = lintFixtureSet(sources, context);
  return { dir: options.dir, rulebook, fixtures, refusals, warnings, agents: agentFiles, uncovered };
}
