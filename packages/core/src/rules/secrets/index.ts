export { redactSecrets } from './redact-secrets.js';
export { scanSecrets } from './scan-secrets.js';
export type { SecretDetectorSet, SecretFinding, SecretScanOptions } from './secret-finding.js';
