import { maskSecret } from './mask.js';
import { quotedRuns } from './quoted-runs.js';
import { detectSecrets } from './scan-secrets.js';
import type { SecretScanOptions } from './secret-finding.js';

/** Every detector, at the entropy the default rulebook uses: a record should rather mask too much than too little. */
const REDACT_OPTIONS: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };

/**
 * The text with every credential the detectors find replaced by its mask (`AKIA…`), for records
 * that are kept (the gate's audit log). `style` picks how values are read: a shell command or a
 * detail sentence reads like a config file (`TOKEN=abc` is the literal), code like code. What the text
 * stands for is masked too: a key split over quoted literals joined by `+` or `,` in any language (the
 * whole run goes), one folded from JavaScript, and one inside a base64 or hex literal (the literal goes).
 */
export async function redactSecrets(text: string, style: 'config' | 'code' = 'config'): Promise<string> {
  if (text === '') return text;
  const file = style === 'code' ? 'text.ts' : 'text.sh';
  const found = await detectSecrets(text, file, REDACT_OPTIONS, 'text.ts');
  for (const run of quotedRuns(text)) {
    const [inside] = await detectSecrets(run.value, 'text.sh', REDACT_OPTIONS);
    if (inside !== undefined)
      found.push({ ...inside, start: run.start, end: run.end, value: text.slice(run.start, run.end), decoded: inside.decoded ?? inside.value });
  }
  if (found.length === 0) return text;
  found.sort((left, right) => left.start - right.start || right.end - left.end);
  let redacted = '';
  let at = 0;
  for (const secret of found) {
    if (secret.end <= at) continue;
    // Overlapping findings: the first one's mask stands for both, and the overlap's tail is dropped too.
    if (secret.start >= at) redacted += text.slice(at, secret.start) + maskSecret(secret.decoded ?? secret.value);
    at = secret.end;
  }
  return redacted + text.slice(at);
}
