import type { PressureFixture, Rulebook } from '../contract/index.js';
import { loadRulebook } from '../rules/index.js';
import { readAgentsFile, readFixtureSources, readUncoveredFile } from './fixture-files.js';
import { lintContextFrom } from './lint-context.js';
import { lintFixtureSet } from './lint-set.js';
import type { Refusal } from './refusal.js';

/** A fixtures folder read against a rulebook: what passed lint, what was refused, the pinned debt. */
export interface PressureSuite {
  readonly dir: string;
  readonly rulebook: Rulebook;
  readonly fixtures: readonly PressureFixture[];
  readonly refusals: readonly Refusal[];
  /** The pinned debt list (`uncovered.json`); undefined when the folder has none. */
  readonly uncovered: readonly string[] | undefined;
}

export interface LoadPressureSuiteOptions {
  readonly dir: string;
  /** A rulebook already loaded, or a file to load; the shipped default when neither is given. */
  readonly rulebook?: Rulebook;
  readonly rulebookFile?: string;
}

export async function loadPressureSuite(options: LoadPressureSuiteOptions): Promise<PressureSuite> {
  const rulebook = options.rulebook ?? (await loadRulebook(options.rulebookFile));
  const [sources, agents, uncovered] = await Promise.all([
    readFixtureSources(options.dir),
    readAgentsFile(options.dir),
    readUncoveredFile(options.dir),
  ]);
  const { fixtures, refusals } = lintFixtureSet(sources, lintContextFrom(rulebook, agents));
  return { dir: options.dir, rulebook, fixtures, refusals, uncovered };
}
