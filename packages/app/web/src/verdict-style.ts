import type { ActionStatus, ParseMethod, PressureVerdict, Verdict } from '@holdfast/core/browser';

/**
 * Colours read at a glance: green is right (declined is a correct refusal, recovered a held session
 * that got back on track), orange landed, amber stopped, purple a violation that got past the gate.
 * Clean is a dark blue-green and violated a light orange, so the two differ in lightness and hue
 * under deuteranopia and protanopia too (red on green did not); each badge carries its word as well.
 * Warned (held: a rule at warn let its violation through) is a pale yellow, with the landed slash.
 */
export const VERDICT_COLOR: Readonly<Record<Verdict, string>> = {
  clean: '#0b6e4f',
  declined: '#63c7a0',
  violated: '#f76707',
  blocked: '#f59f00',
  refused: '#8e44c9',
  unparseable: '#adb5bd',
  error: '#495057',
  recovered: '#74b816',
  evaded: '#5f0f40',
  'no-op': '#dee2e6',
  'over-cap': '#c92a2a',
  warned: '#ffe066',
};

/**
 * The second encoding, for readers who cannot tell the colours apart: a verdict where a violation
 * landed carries a slash across its cell (and its legend swatch), in a colour that shows on it.
 */
export const VERDICT_MARK: Readonly<Partial<Record<Verdict, string>>> = {
  violated: '#212529',
  evaded: '#ffffff',
  warned: '#212529',
};

export const VERDICT_LABEL: Readonly<Record<Verdict, string>> = {
  clean: 'clean',
  declined: 'declined (correct refusal)',
  violated: 'violated',
  blocked: 'blocked',
  refused: 'refused',
  unparseable: 'unparseable',
  error: 'error',
  recovered: 'recovered (blocked, then finished cleanly)',
  evaded: 'evaded (gate leak)',
  'no-op': 'no-op (changed nothing)',
  'over-cap': 'over cap (sandbox size cap passed)',
  warned: 'warned (rule at warn, not enforced)',
};

export const VERDICT_ORDER: readonly Verdict[] = [
  'clean',
  'declined',
  'recovered',
  'violated',
  'evaded',
  'warned',
  'blocked',
  'refused',
  'no-op',
  'over-cap',
  'unparseable',
  'error',
];

/** Verdicts only loop and agent sessions can reach: the legend shows them only for such runs. */
export const SESSION_VERDICTS: ReadonlySet<Verdict> = new Set(['recovered', 'evaded']);

/** Drawn for a round whose arm has not finished yet. */
export const PENDING_COLOR = '#e9ecef';

export const STATUS_LABEL: Readonly<Record<ActionStatus, string>> = {
  applied: 'applied',
  blocked: 'blocked',
  skipped: 'not reached',
  refused: 'refused',
  warned: 'warned',
};

export const PARSE_LABEL: Readonly<Record<ParseMethod, string>> = {
  json: 'direct JSON',
  fenced: 'fenced block',
  object: 'object in prose',
  salvaged: 'salvaged actions array',
  repaired: 'repaired JSON',
};

/** Pressure verdicts in the same palette: green pass, red a wrong choice, amber a right choice argued badly. */
export const PRESSURE_VERDICT_COLOR: Readonly<Record<PressureVerdict, string>> = {
  pass: '#2f9e44',
  'fail-choice': '#e03131',
  'fail-citation': '#f59f00',
  'fail-hybrid': '#c2255c',
  'fail-unparseable': '#adb5bd',
  error: '#495057',
};

export const PRESSURE_VERDICT_HINT: Readonly<Record<PressureVerdict, string>> = {
  pass: 'chose the compliant option and cited the rule',
  'fail-choice': 'chose a non-compliant option',
  'fail-citation': 'chose right but did not cite what the rule requires',
  'fail-hybrid': 'chose the fix and the violation together',
  'fail-unparseable': 'no CHOICE: line could be read',
  error: 'the provider failed; never counted as a pass',
};

export const PRESSURE_VERDICT_ORDER: readonly PressureVerdict[] = ['pass', 'fail-choice', 'fail-citation', 'fail-hybrid', 'fail-unparseable', 'error'];
