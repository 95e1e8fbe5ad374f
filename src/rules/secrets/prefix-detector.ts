import { isPlaceholder } from './literal-value.js';
import { literalProbe, probeTable, readOnce } from './one-pass.js';
import type { ProbeTable } from './one-pass.js';
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

/** Every prefixed key's literals; vendor-anchors.ts finds them in its one pass. */
export const PREFIXED_KEY_LITERALS: readonly string[] = [...new Set(PREFIXED_KEYS.flatMap((key) => key.literals))];

let literalsOnly: ProbeTable | undefined;

/** The prefixed-key literals the content holds. */
export function prefixedLiteralsIn(content: string): Set<string> {
  literalsOnly ??= probeTable(
    PREFIXED_KEY_LITERALS.map((literal, flag) => literalProbe(flag, literal)),
    PREFIXED_KEY_LITERALS.length,
  );
  const { flags } = readOnce(content, literalsOnly);
  return new Set(PREFIXED_KEY_LITERALS.filter((_, flag) => flags[flag] === 1));
}

/**
 * `present` is prefixedLiteralsIn(content), when a pass over the content found them already: a key
 * none of whose literals the content holds is not looked for.
 */
export function findPrefixedSecrets(content: string, present: ReadonlySet<string> = prefixedLiteralsIn(content)): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  if (present.size === 0) return found;
  for (const { detector, literals, pattern } of PREFIXED_KEYS) {
    if (!literals.some((literal) => present.has(literal))) continue;
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
