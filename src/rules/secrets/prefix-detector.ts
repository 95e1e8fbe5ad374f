import { isPlaceholder } from './literal-value.js';
import type { DetectedSecret } from './secret-finding.js';

/**
 * Vendor keys with an unmistakable prefix that secretlint's recommended preset does not know.
 * They are caught wherever they appear, not only when assigned to a credential-looking name
 * (`new Stripe("sk_live_…")`). Each pattern starts with a literal and has bounded quantifiers.
 */
const PREFIXED_KEYS: readonly { detector: string; literal: string; pattern: RegExp }[] = [
  { detector: 'Stripe live secret key', literal: 'k_live_', pattern: /\b[sr]k_live_[0-9A-Za-z]{20,99}\b/g },
  { detector: 'Google API key', literal: 'AIza', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { detector: 'Twilio API key', literal: 'SK', pattern: /\bSK[0-9a-f]{32}\b/g },
  { detector: 'OpenAI API key', literal: 'sk-', pattern: /\bsk-[A-Za-z0-9]{48}\b/g },
  { detector: 'OpenAI project key', literal: 'sk-', pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,400}(?![A-Za-z0-9_-])/g },
  // Header and payload are base64url JSON objects, so both start `eyJ`; the signature follows.
  { detector: 'JSON Web Token', literal: 'eyJ', pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,1024}(?![A-Za-z0-9_-])/g },
];

/** The literal every prefixed key starts with (or holds, after one letter); vendor-anchors.ts indexes them for its one pass. */
export const PREFIXED_KEY_LITERALS: readonly string[] = [...new Set(PREFIXED_KEYS.map((key) => key.literal))];

/** Every literal at once (they are plain letters, digits, `_` and `-`): one pass instead of one per key. */
const ANY_LITERAL = new RegExp(PREFIXED_KEY_LITERALS.join('|'), 'g');

function literalsIn(content: string): Set<string> {
  const present = new Set<string>();
  ANY_LITERAL.lastIndex = 0;
  for (let match = ANY_LITERAL.exec(content); match !== null; match = ANY_LITERAL.exec(content)) {
    present.add(match[0]);
    // One position on, not past the match: a literal overlapping this one is still seen.
    ANY_LITERAL.lastIndex = match.index + 1;
  }
  return present;
}

/** `prefilter` off (every pattern runs) only to prove, in tests, that it changes nothing. */
export function findPrefixedSecrets(content: string, prefilter = true): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  const present = prefilter ? literalsIn(content) : undefined;
  if (present?.size === 0) return found;
  for (const { detector, literal, pattern } of PREFIXED_KEYS) {
    // Every match holds the literal; without it the pattern need not run. The shared pattern is
    // run with exec rather than matchAll, which copies the pattern on every call.
    if (present !== undefined && !present.has(literal)) continue;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(content); match !== null; match = pattern.exec(content)) {
      // Published documentation values (the jwt.io sample token) and stand-ins (`sk-proj-xxxx…`) are not keys.
      if (isPlaceholder(match[0])) continue;
      found.push({ detector, start: match.index, end: match.index + match[0].length, value: match[0] });
    }
  }
  return found;
}
