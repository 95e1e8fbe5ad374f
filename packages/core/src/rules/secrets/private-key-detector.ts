import { isPlaceholder } from './literal-value.js';
import type { DetectedSecret } from './secret-finding.js';

/*
 * Every PEM private key armour (RFC 7468, OpenSSH's PROTOCOL.key, RFC 4880's ASCII armour), judged
 * by its body rather than by the first bytes of it: secretlint's private key rule asks the body to
 * start `MI` and hold at least 100 base64 characters, so a SEC1 P-256 key (`MHcC…`), an Ed25519
 * PKCS#8 key (64 characters), an encrypted PKCS#8 key and a PGP block all pass it by.
 */

/** The armour labels of private keys. Public keys and certificates have other labels and never match. */
const BEGIN = /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----/g;

const LABELS: Readonly<Record<string, string>> = {
  'RSA PRIVATE KEY': 'RSA private key',
  'EC PRIVATE KEY': 'EC private key',
  'DSA PRIVATE KEY': 'DSA private key',
  'OPENSSH PRIVATE KEY': 'OpenSSH private key',
  'PRIVATE KEY': 'PKCS#8 private key',
  'ENCRYPTED PRIVATE KEY': 'encrypted PKCS#8 private key',
  'PGP PRIVATE KEY BLOCK': 'PGP private key block',
};

/** An RSA-4096 key is about 3.3 KB and a PGP block with subkeys a few more; past this the END is not looked for. */
const MAX_BODY = 64 * 1024;
/** The shortest real body: an Ed25519 key in PKCS#8 is 64 base64 characters. */
const MIN_BODY = 40;
/** Without its END line (a reply cut short), a block is a key only when this much body follows. */
const MIN_UNTERMINATED_BODY = 256;

/**
 * Every private key block in the content, spanning its BEGIN line to its END line. The body may be
 * written with real newlines, `\n` escapes (a JSON or JS string), quotes and `+` of a string split over
 * lines, and RFC 1421 or RFC 4880 header lines (`Proc-Type:`, `Version:`); what is left must be base64
 * and not a stand-in (`MIIE...`, `xxxx`).
 */
export function findPrivateKeyBlocks(content: string): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  if (!content.includes('PRIVATE KEY')) return found;
  BEGIN.lastIndex = 0;
  for (let match = BEGIN.exec(content); match !== null; match = BEGIN.exec(content)) {
    const label = match[1] as string;
    const bodyStart = match.index + match[0].length;
    const endMarker = `-----END ${label}-----`;
    const endAt = content.indexOf(endMarker, bodyStart);
    const terminated = endAt !== -1 && endAt - bodyStart <= MAX_BODY;
    const bodyEnd = terminated ? endAt : nextBlockOrLimit(content, bodyStart);
    const body = base64Body(content.slice(bodyStart, bodyEnd));
    if (body === undefined || body.length < (terminated ? MIN_BODY : MIN_UNTERMINATED_BODY) || isPlaceholder(body)) continue;
    const end = terminated ? endAt + endMarker.length : bodyEnd;
    found.push({ detector: LABELS[label] ?? 'private key', start: match.index, end, value: content.slice(match.index, end) });
    BEGIN.lastIndex = end;
  }
  return found;
}

function nextBlockOrLimit(content: string, from: number): number {
  const limit = Math.min(content.length, from + MAX_BODY);
  const next = content.indexOf('-----', from);
  return next === -1 || next > limit ? limit : next;
}

/** The base64 of a body with its layout and headers removed, or undefined when anything else is left. */
function base64Body(raw: string): string | undefined {
  let body = '';
  for (const rawLine of raw.replace(/\\r|\\n/g, '\n').split(/\r?\n/)) {
    // Quotes, `+` and commas of a key split over string literals; a PGP checksum line starts `=`.
    const line = rawLine.replace(/^[\s'"`+,]+|[\s'"`+,]+$/g, '');
    if (line === '' || /^[A-Za-z-]+: /.test(line) || /^=[A-Za-z0-9+/]{4}$/.test(line)) continue;
    body += line;
  }
  return /^[A-Za-z0-9+/]+={0,2}$/.test(body) ? body : undefined;
}
