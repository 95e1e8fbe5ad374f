import type { PressureFixture } from '@holdfast/core/contract';
import type { LintContext } from './lint-context.js';
import { lintFixture } from './lint-fixture.js';
import type { LintWarning, Refusal } from './refusal.js';
import { safeParseJson } from '@holdfast/core/contract';
import type { ScoredRule } from './score.js';

/** A fixture file as read from disk: its name (for messages) and its text. */
export interface FixtureSource {
  readonly file: string;
  readonly text: string;
  /** Set when the file could not be read (the error code): a refusal, never a silent skip. */
  readonly unreadable?: string;
}

export interface FixtureSetLint {
  /** Fixtures that passed every check, in file order. A duplicate id keeps neither copy. */
  readonly fixtures: readonly PressureFixture[];
  readonly refusals: readonly Refusal[];
  readonly warnings: readonly LintWarning[];
  /** Sound fixtures about a rule the measured rulebook does not have: not counted, not run, not refused. */
  readonly unbound: readonly UnboundFixture[];
  /** Fixture id → the measured rule it puts under pressure (what a reply must cite). */
  readonly boundRules: ReadonlyMap<string, ScoredRule>;
}

export interface UnboundFixture {
  readonly file: string;
  readonly id: string;
  readonly rule: string | number;
  readonly reason: string;
}

/** Lints a whole folder's worth of fixtures: each on its own, then ids across files. */
export function lintFixtureSet(sources: readonly FixtureSource[], context: LintContext): FixtureSetLint {
  const refusals: Refusal[] = [];
  const warnings: LintWarning[] = [];
  const accepted: { file: string; fixture: PressureFixture }[] = [];
  const unbound: UnboundFixture[] = [];
  const boundRules = new Map<string, ScoredRule>();
  const filesById = new Map<string, string[]>();

  for (const source of sources) {
    if (source.unreadable !== undefined) {
      refusals.push({ code: 'E_PRESSURE_READ', file: source.file, field: '(root)', message: `cannot be read (${source.unreadable})` });
      continue;
    }
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
    if (!result.ok) {
      refusals.push(...result.refusals);
      continue;
    }
    const resolved = context.resolveRule(result.fixture.rule);
    if (resolved.state === 'bound' || resolved.state === 'label') {
      accepted.push({ file: source.file, fixture: result.fixture });
      boundRules.set(result.fixture.id, { id: resolved.rule.id, name: resolved.rule.name, number: resolved.rule.number });
    } else {
      unbound.push({ file: source.file, id: result.fixture.id, rule: result.fixture.rule, reason: resolved.reason });
    }
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
    unbound: unbound.filter((entry) => !duplicated.has(entry.id)),
    boundRules,
  };
}
