import type { PressureFixture } from '@holdfast/core/contract';
import type { LintContext } from './lint-context.js';
import { lintFixture } from './lint-fixture.js';
import type { LintWarning, Refusal } from './refusal.js';
import { safeParseJson } from '@holdfast/core/contract';

/** A fixture file as read from disk: its name (for messages) and its text. */
export interface FixtureSource {
  readonly file: string;
  readonly text: string;
}

export interface FixtureSetLint {
  /** Fixtures that passed every check, in file order. A duplicate id keeps neither copy. */
  readonly fixtures: readonly PressureFixture[];
  readonly refusals: readonly Refusal[];
  readonly warnings: readonly LintWarning[];
}

/** Lints a whole folder's worth of fixtures: each on its own, then ids across files. */
export function lintFixtureSet(sources: readonly FixtureSource[], context: LintContext): FixtureSetLint {
  const refusals: Refusal[] = [];
  const warnings: LintWarning[] = [];
  const accepted: { file: string; fixture: PressureFixture }[] = [];
  const filesById = new Map<string, string[]>();

  for (const source of sources) {
    const json = safeParseJson(source.text);
    if (!json.ok) {
      refusals.push({ code: 'E_PRESSURE_JSON', file: source.file, field: '(root)', message: `not valid JSON: ${json.error}` });
      continue;
    }
    const raw = json.value;
    const id = typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? raw.id : undefined;
    if (id !== undefined) filesById.set(id, [...(filesById.get(id) ?? []), source.file]);
    const result = lintFixture(raw, source.file, context);
    warnings.push(...result.warnings);
    if (result.ok) accepted.push({ file: source.file, fixture: result.fixture });
    else refusals.push(...result.refusals);
  }

  const duplicated = new Set<string>();
  for (const [id, files] of filesById) {
    if (files.length < 2) continue;
    duplicated.add(id);
    for (const file of files.slice(1)) {
      refusals.push({ code: 'E_PRESSURE_DUPLICATE_ID', file, field: 'id', message: `id "${id}" is also used by ${files[0]}` });
    }
  }
  return {
    fixtures: accepted.filter((entry) => !duplicated.has(entry.fixture.id)).map((entry) => entry.fixture),
    refusals,
    warnings,
  };
}
