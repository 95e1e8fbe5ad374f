import { isPlaceholder } from './literal-value.js';
import { literalProbe, probeTable, readOnce } from './one-pass.js';
import type { Probe, ProbeTable } from './one-pass.js';
import type { DetectedSecret } from './secret-finding.js';

/**
 * Vendor keys with an unmistakable prefix that secretlint's recommended preset does not know.
 * They are caught wherever they appear, not only when assigned to a credential-looking name
 * (`new Stripe("sk_live_…")`). Each pattern has bounded quantifiers, and every match of it holds
 * one of its `literals` (three characters or more).
 */
const PREFIXED_KEYS: readonly { detector: string; literals: readonly string[]; pattern: RegExp }[] = [
  { detector: 'Stripe live secret key', literals: ['k_live_'], pattern: /\b[sr]k_live_[0-9A-Za-z]{20,99}\b/g },
  { detector: 'Google API key', literals: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { detector: 'Twilio API key', literals: [...'0123456789abcdef'].map((digit) => `SK${digit}`), pattern: /\bSK[0-9a-f]{32}\b/g },
  { detector: 'OpenAI API key', literals: ['sk-'], pattern: /\bsk-[A-Za-z0-9]{48}\b/g },
  { detector: 'OpenAI project key', literals: ['sk-'], pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,400}(?![A-Za-z0-9_-])/g },
  // Header and payload are base64url JSON objects, so both start `eyJ`; the signature follows.
  { detector: 'JSON Web Token', literals: ['eyJ'], pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,1024}(?![A-Za-z0-9_-])/g },
];

/** Every prefixed key's literals (prefixedKeyProbes finds them in a one-pass read). */
export const PREFIXED_KEY_LITERALS: readonly string[] = [...new Set(PREFIXED_KEYS.flatMap((key) => key.literals))];

/** Each prefixed key as a bit: set when the content holds one of the key's literals. */
export const EVERY_PREFIXED_KEY = (1 << PREFIXED_KEYS.length) - 1;

/** Probes for the keys' literals, key `i` setting flag `firstFlag + i` (see one-pass.ts). */
export function prefixedKeyProbes(firstFlag: number): Probe[] {
  return PREFIXED_KEYS.flatMap((key, index) => key.literals.map((literal) => literalProbe(firstFlag + index, literal)));
}

let literalsOnly: ProbeTable | undefined;

/** The prefixed keys (bits, see EVERY_PREFIXED_KEY) one of whose literals the content holds. */
export function prefixedKeysIn(content: string): number {
  literalsOnly ??= probeTable(prefixedKeyProbes(0));
  return readOnce(content, literalsOnly).flags;
}

/**
 * `present` is prefixedKeysIn(content), when a pass over the content found them already: a key
 * none of whose literals the content holds is not looked for.
 */
export function findPrefixedSecrets(content: string, present: number = prefixedKeysIn(content)): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  if (present === 0) return found;
  for (const [index, { detector, pattern }] of PREFIXED_KEYS.entries()) {
    if ((present & (1 << index)) === 0) continue;
    // The shared pattern is run with exec rather than matchAll, which copies the pattern on every call.
    pattern.lastIndex = 0;
    for (let match = pattern.exec(content); match !== null; match = pattern.exec(content)) {
      // Published documentation values (the jwt.io sample token) and stand-ins (`sk-proj-xxxx…`) are not keys.
      if (isPlaceholder(match[0])) continue;
      found.push({ detector, start: match.index, end: match.index + match[0].length, value: match[0] });
    }
  }
  return found;
}
