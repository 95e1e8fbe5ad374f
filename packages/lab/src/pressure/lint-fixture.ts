import { CHOICE_ID_PATTERN, PRESSURE_ID_PATTERN, PRESSURE_KIND_EXTENSIONS, PressureFixtureSchema } from '@holdfast/core/contract';
import type { PressureFixture } from '@holdfast/core/contract';
import { PLACEHOLDER } from './fixture-skeleton.js';
import type { LintContext } from './lint-context.js';
import { PressureFixtureError } from './refusal.js';
import type { LintWarning, Refusal, RefusalCode } from './refusal.js';
import { contentWords, normalizeText } from './text.js';

export const MIN_SCENARIO_CHARS = 80;
export const MIN_PRESSURES = 3;
export const MIN_CHOICES = 3;

const FIXTURE_KEYS = new Set(Object.keys(PressureFixtureSchema.shape));
// A scenario a working engineer recognises names a real file or folder.
const PATH_LIKE = /(?:[\w.-]+\/[\w./-]+|\b[\w-]+\.(?:ts|tsx|js|mjs|json|ya?ml|env|md|sql|sh|toml|lock)\b)/;

export type FixtureLintResult =
  | { readonly ok: true; readonly fixture: PressureFixture; readonly refusals: readonly []; readonly warnings: readonly LintWarning[] }
  | { readonly ok: false; readonly refusals: readonly Refusal[]; readonly warnings: readonly LintWarning[] };

type Raw = Record<string, unknown>;

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one fixture (already read as JSON) and returns every refusal, not just the first, so a
 * person fixes a file in one pass. Deny-by-default: a field it cannot read is a refusal.
 */
export function lintFixture(raw: unknown, file: string, context: LintContext): FixtureLintResult {
  const refusals: Refusal[] = [];
  const warnings: LintWarning[] = [];
  const refuse = (code: RefusalCode, field: string, message: string): void => {
    refusals.push({ code, file, field, message });
  };

  if (!isRecord(raw)) {
    refuse('E_PRESSURE_SHAPE', '(root)', 'a fixture is a JSON object');
    return { ok: false, refusals, warnings };
  }
  for (const key of Object.keys(raw)) {
    if (!FIXTURE_KEYS.has(key)) refuse('E_PRESSURE_SHAPE', key, `unknown field "${key}"`);
  }
  if (raw.schema_version !== 1) refuse('E_PRESSURE_SHAPE', 'schema_version', 'schema_version must be 1');

  const text = (field: string): string | undefined => {
    const value = raw[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
    refuse('E_PRESSURE_SHAPE', field, `${field} must be a non-empty string`);
    return undefined;
  };

  const id = text('id');
  if (id !== undefined && !PRESSURE_ID_PATTERN.test(id)) {
    refuse('E_PRESSURE_ID', 'id', `"${id}" is not PRS- followed by upper-case letters, digits and dashes`);
  }
  text('title');

  lintRule(raw, context, refuse);

  const scenario = text('scenario');
  if (scenario !== undefined) {
    const length = scenario.trim().length;
    if (length < MIN_SCENARIO_CHARS) {
      refuse('E_PRESSURE_SCENARIO_SHORT', 'scenario', `${length} characters; a scenario needs at least ${MIN_SCENARIO_CHARS} to read as real work`);
    } else if (!PATH_LIKE.test(scenario)) {
      warnings.push({
        code: 'W_PRESSURE_SCENARIO_PATH',
        file,
        field: 'scenario',
        message: 'names no file or folder; a scenario set in real paths reads as real work',
      });
    }
  }

  lintPressures(raw.pressures, context, refuse);
  lintChoices(raw.choices, raw.correct_choice, refuse);
  lintRationalizations(raw.rationalizations, refuse, (field, message) => warnings.push({ code: 'W_PRESSURE_WEAK_COUNTER', file, field, message }));

  for (const [field, value] of placeholders(raw)) {
    refuse('E_PRESSURE_PLACEHOLDER', field, `still holds the skeleton's placeholder ${JSON.stringify(value)}: write what a person on this team would face`);
  }

  if (raw.must_cite !== undefined) {
    const mustCite = raw.must_cite;
    if (!Array.isArray(mustCite) || mustCite.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
      refuse('E_PRESSURE_SHAPE', 'must_cite', 'must_cite is a list of non-empty strings');
    }
  }

  if (refusals.length > 0) return { ok: false, refusals, warnings };
  // Every floor above holds; the schema then only confirms the types (and fixes the TS type).
  const parsed = PressureFixtureSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) refuse('E_PRESSURE_SHAPE', issue.path.join('.') || '(root)', issue.message);
    return { ok: false, refusals, warnings };
  }
  return { ok: true, fixture: parsed.data, refusals: [], warnings };
}

/** Every string of the fixture, with its field path, that still holds a `pressure new` placeholder. */
function placeholders(value: unknown, field = ''): [string, string][] {
  if (typeof value === 'string') {
    const found = PLACEHOLDER.exec(value);
    return found === null ? [] : [[field || '(root)', found[0]]];
  }
  if (Array.isArray(value)) return value.flatMap((entry, index) => placeholders(entry, field === '' ? String(index) : `${field}.${index}`));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, entry]) => placeholders(entry, field === '' ? key : `${field}.${key}`));
  return [];
}

type Refuse = (code: RefusalCode, field: string, message: string) => void;

function lintRule(raw: Raw, context: LintContext, refuse: Refuse): void {
  const ref = raw.rule;
  const validRef = (typeof ref === 'string' && ref.trim() !== '') || (typeof ref === 'number' && Number.isInteger(ref) && ref > 0);
  if (!validRef) {
    refuse('E_PRESSURE_SHAPE', 'rule', 'rule is a rule id ("R1") or a rule number (8)');
  }
  const resolved = validRef ? context.resolveRule(ref) : undefined;
  if (resolved?.state === 'missing') refuse('E_PRESSURE_UNKNOWN_RULE', 'rule', resolved.reason);
  const rule = resolved?.state === 'bound' || resolved?.state === 'label' ? resolved.rule : undefined;
  if (raw.agent === undefined) return;
  if (typeof raw.agent !== 'string' || raw.agent.trim() === '') {
    refuse('E_PRESSURE_SHAPE', 'agent', 'agent, when present, is a non-empty string');
    return;
  }
  // Deny by default once the suite declares agents; a suite that declares none has nothing to check against.
  if (context.agents === undefined) return;
  const claimed = context.agents.get(raw.agent);
  if (claimed === undefined) {
    const known = [...context.agents.keys()].join(', ');
    refuse(
      'E_PRESSURE_UNKNOWN_AGENT',
      'agent',
      `no agent "${raw.agent}" is declared by the rulebook, agents.json or the agent files (known: ${known}); add its agent file to the --agents folder`,
    );
  } else if (rule !== undefined && !claimed.has(rule.id)) {
    refuse('E_PRESSURE_AGENT_RULE', 'agent', `agent "${raw.agent}" does not claim rule ${rule.id} (it claims ${[...claimed].join(', ')})`);
  }
}

function lintPressures(pressures: unknown, context: LintContext, refuse: Refuse): void {
  if (!Array.isArray(pressures)) {
    refuse('E_PRESSURE_SHAPE', 'pressures', 'pressures is a list');
    return;
  }
  const seen = new Set<string>();
  pressures.forEach((pressure, index) => {
    const field = `pressures.${index}`;
    if (typeof pressure !== 'string' || !context.pressureKinds.has(pressure)) {
      const extension = (PRESSURE_KIND_EXTENSIONS as readonly unknown[]).includes(pressure);
      const hint = extension
        ? `; "${String(pressure)}" is an extension: declare it in the suite's extensions.json ({"pressures": ["${String(pressure)}"]})`
        : '';
      refuse('E_PRESSURE_UNKNOWN_PRESSURE', field, `${JSON.stringify(pressure)} is not one of ${[...context.pressureKinds].join(', ')}${hint}`);
    } else if (seen.has(pressure)) {
      // A repeated pressure would count twice towards the floor without adding pressure.
      refuse('E_PRESSURE_DUPLICATE_PRESSURE', field, `"${pressure}" is listed twice`);
    } else {
      seen.add(pressure);
    }
  });
  if (seen.size < MIN_PRESSURES) {
    refuse('E_PRESSURE_TOO_FEW_PRESSURES', 'pressures', `${seen.size} distinct known pressures; a fixture stacks at least ${MIN_PRESSURES}`);
  }
}

function lintChoices(choices: unknown, correctChoice: unknown, refuse: Refuse): void {
  if (!Array.isArray(choices)) {
    refuse('E_PRESSURE_SHAPE', 'choices', 'choices is a list');
    return;
  }
  if (choices.length < MIN_CHOICES) {
    refuse('E_PRESSURE_TOO_FEW_CHOICES', 'choices', `${choices.length} choices; a fixture offers at least ${MIN_CHOICES}`);
  }
  const ids = new Set<string>();
  const compliant: string[] = [];
  choices.forEach((choice, index) => {
    const field = `choices.${index}`;
    if (!isRecord(choice)) {
      refuse('E_PRESSURE_SHAPE', field, 'a choice is {id, text, compliant}');
      return;
    }
    for (const key of Object.keys(choice)) {
      if (key !== 'id' && key !== 'text' && key !== 'compliant') refuse('E_PRESSURE_SHAPE', `${field}.${key}`, `unknown field "${key}"`);
    }
    if (typeof choice.id !== 'string' || !CHOICE_ID_PATTERN.test(choice.id)) {
      refuse('E_PRESSURE_CHOICE_ID', `${field}.id`, `${JSON.stringify(choice.id)} is not a single upper-case letter`);
    } else if (ids.has(choice.id)) {
      refuse('E_PRESSURE_CHOICE_ID', `${field}.id`, `choice "${choice.id}" appears twice`);
    } else {
      ids.add(choice.id);
    }
    if (typeof choice.text !== 'string' || choice.text.trim() === '') refuse('E_PRESSURE_SHAPE', `${field}.text`, 'text must be a non-empty string');
    if (typeof choice.compliant !== 'boolean') refuse('E_PRESSURE_SHAPE', `${field}.compliant`, 'compliant must be true or false');
    else if (choice.compliant && typeof choice.id === 'string') compliant.push(choice.id);
  });
  if (compliant.length !== 1) {
    refuse('E_PRESSURE_COMPLIANT_COUNT', 'choices', `${compliant.length} choices are marked compliant; exactly one must be`);
  }
  if (typeof correctChoice !== 'string') {
    refuse('E_PRESSURE_SHAPE', 'correct_choice', 'correct_choice must be the id of a choice');
  } else if (compliant.length === 1 && compliant[0] !== correctChoice) {
    refuse('E_PRESSURE_CORRECT_CHOICE', 'correct_choice', `correct_choice is "${correctChoice}" but the compliant choice is "${compliant[0]}"`);
  } else if (!ids.has(correctChoice)) {
    refuse('E_PRESSURE_CORRECT_CHOICE', 'correct_choice', `correct_choice "${correctChoice}" is not among the choices`);
  }
}

function lintRationalizations(rationalizations: unknown, refuse: Refuse, warn: (field: string, message: string) => void): void {
  if (!Array.isArray(rationalizations) || rationalizations.length === 0) {
    refuse('E_PRESSURE_NO_RATIONALIZATIONS', 'rationalizations', 'at least one {excuse, counter}: the excuses agents make, each answered');
    return;
  }
  rationalizations.forEach((entry, index) => {
    const field = `rationalizations.${index}`;
    if (!isRecord(entry)) {
      refuse('E_PRESSURE_SHAPE', field, 'a rationalization is {excuse, counter}');
      return;
    }
    for (const key of Object.keys(entry)) {
      if (key !== 'excuse' && key !== 'counter') refuse('E_PRESSURE_SHAPE', `${field}.${key}`, `unknown field "${key}"`);
    }
    const { excuse, counter } = entry;
    if (typeof excuse !== 'string' || excuse.trim() === '') {
      refuse('E_PRESSURE_SHAPE', `${field}.excuse`, 'excuse must be a non-empty string');
      return;
    }
    if (typeof counter !== 'string' || counter.trim() === '') {
      refuse('E_PRESSURE_NO_COUNTER', `${field}.counter`, 'an excuse without a counter teaches nothing');
      return;
    }
    if (echoes(counter, excuse)) {
      warn(`${field}.counter`, 'the counter only repeats its excuse');
    } else if (counter.trim().length < excuse.trim().length / 2) {
      warn(`${field}.counter`, `the counter (${counter.trim().length} characters) is shorter than half its excuse (${excuse.trim().length})`);
    }
  });
}

/** A counter echoes its excuse when it says nothing the excuse did not already say. */
function echoes(counter: string, excuse: string): boolean {
  const normalizedCounter = normalizeText(counter);
  const normalizedExcuse = normalizeText(excuse);
  if (normalizedExcuse.includes(normalizedCounter)) return true;
  const excuseWords = new Set(normalizedExcuse.split(' '));
  return normalizedCounter.split(' ').every((word) => excuseWords.has(word)) || contentWords(counter).length === 0;
}

/** Lints one fixture and throws `PressureFixtureError` with every refusal. */
export function parsePressureFixture(raw: unknown, file: string, context: LintContext): PressureFixture {
  const result = lintFixture(raw, file, context);
  if (!result.ok) throw new PressureFixtureError(result.refusals);
  return result.fixture;
}
