import { vendorLabel } from './vendor-labels.js';
import type { DetectedSecret } from './secret-finding.js';

export const AWS_RULE = '@secretlint/secretlint-rule-aws';

/**
 * The preset AWS rule's access key id scan (git-secrets' pattern), run here instead of inside
 * secretlint: switching it on there (`enableIDScanRule`) also runs the rule's account id scan,
 * the slowest pattern of the whole preset, whose findings R1 then threw away (an account id is
 * not a secret). The same pattern and the same built-in exception, AWS's documentation key id;
 * a test holds it to the rule's own findings.
 */
const ACCESS_KEY_ID = /\b(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b/g;
const DOCUMENTATION_KEY_ID = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const LABEL = vendorLabel(AWS_RULE, 'AWSAccessKeyID');

export function findAwsAccessKeyIds(content: string): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  ACCESS_KEY_ID.lastIndex = 0;
  for (let match = ACCESS_KEY_ID.exec(content); match !== null; match = ACCESS_KEY_ID.exec(content)) {
    if (match[0] === DOCUMENTATION_KEY_ID) continue;
    found.push({ detector: LABEL, start: match.index, end: match.index + match[0].length, value: match[0] });
  }
  return found;
}
