import { isPlaceholder } from './literal-value.js';
import type { DetectedSecret } from './secret-finding.js';

/**
 * Vendor keys with an unmistakable prefix that secretlint's recommended preset does not know.
 * They are caught wherever they appear, not only when assigned to a credential-looking name
 * (`new Stripe("sk_live_…")`). Each pattern starts with a literal and has bounded quantifiers.
 */
const PREFIXED_KEYS: readonly { detector: string; pattern: RegExp }[] = [
  { detector: 'Stripe live secret key', pattern: /\b[sr]k_live_[0-9A-Za-z]{20,99}\b/g },
  { detector: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { detector: 'Twilio API key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { detector: 'OpenAI API key', pattern: /\bsk-[A-Za-z0-9]{48}\b/g },
  { detector: 'OpenAI project key', pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,400}(?![A-Za-z0-9_-])/g },
  // Header and payload are base64url JSON objects, so both start `eyJ`; the signature follows.
  { detector: 'JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,1024}(?![A-Za-z0-9_-])/g },
];

export function findPrefixedSecrets(content: string): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  for (const { detector, pattern } of PREFIXED_KEYS) {
    for (const match of content.matchAll(pattern)) {
      // Published documentation values (the jwt.io sample token) and stand-ins (`sk-proj-xxxx…`) are not keys.
      if (isPlaceholder(match[0])) continue;
      const start = match.index ?? 0;
      found.push({ detector, start, end: start + match[0].length, value: match[0] });
    }
  }
  return found;
}
