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
];

export function findPrefixedSecrets(content: string): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  for (const { detector, pattern } of PREFIXED_KEYS) {
    for (const match of content.matchAll(pattern)) {
      const start = match.index ?? 0;
      found.push({ detector, start, end: start + match[0].length, value: match[0] });
    }
  }
  return found;
}
