/*
 * base64 and hex literals that decode to text, so a key written encoded (a Kubernetes secret's
 * `data:`, a `.dockerconfigjson`, `Buffer.from('Z2hw…', 'base64')`) is read as what it decodes to.
 * Bounded: a literal must be long enough to hold a key, a decoded text is capped, and what a decoded
 * text holds is scanned but never decoded again (one level).
 */

/** One encoded literal and the text it decodes to. */
export interface DecodedLiteral {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly encoding: 'base64' | 'hex';
}

/** 18 decoded bytes, about the shortest credential a detector reports (a 24-character base64 literal). */
const MIN_BASE64 = 24;
const MIN_HEX = 36;
/** A literal longer than this is data (an image, a bundle), not an encoded credential. */
const MAX_ENCODED = 64 * 1024;
/** Decoded text per content, in all: the rescan costs at most about one more scan of the content. */
const MAX_DECODED_TOTAL = 1024 * 1024;
const MAX_LITERALS = 1_024;

const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const HEX_RUN = /[0-9A-Fa-f]{36,}/g;

/**
 * Where a base64 quad's first character encodes a byte below 0x80 it is one of `A`–`Z`, `a`–`f`:
 * text in ASCII passes at every quad, random material (identifiers, hashes) seldom at six in a row.
 */
function quadsCouldBeAscii(run: string): boolean {
  for (let index = 0; index < run.length; index += 4) {
    const code = run.charCodeAt(index);
    if (!((code >= 65 && code <= 90) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

/** Printable hex text: every byte from 0x20 to 0x7e (or tab, newline), so every pair starts 0, 2 to 7. */
function pairsCouldBeText(run: string): boolean {
  for (let index = 0; index < run.length; index += 2) {
    const code = run.charCodeAt(index);
    if (code < 48 || code > 55 || code === 49) return false;
  }
  return true;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8 holding no control character but tab and line ends. */
function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/.test(text) ? undefined : text;
}

function isBoundary(content: string, index: number): boolean {
  const code = content.charCodeAt(index);
  return Number.isNaN(code) || !((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 95 || code === 45);
}

/** Every base64 or hex literal of the content that decodes to text, in order of position. */
export function decodeLiterals(content: string): DecodedLiteral[] {
  const found: DecodedLiteral[] = [];
  let budget = MAX_DECODED_TOTAL;
  BASE64_RUN.lastIndex = 0;
  for (let match = BASE64_RUN.exec(content); match !== null && found.length < MAX_LITERALS && budget > 0; match = BASE64_RUN.exec(content)) {
    const literal = match[0];
    const body = literal.replace(/=+$/, '');
    if (body.length < MIN_BASE64 || literal.length > MAX_ENCODED || body.length % 4 === 1 || !quadsCouldBeAscii(body)) continue;
    if (/^[0-9A-Fa-f]+$/.test(body)) continue;
    const bytes = Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    const text = asText(bytes);
    if (text === undefined) continue;
    budget -= text.length;
    found.push({ start: match.index, end: match.index + literal.length, text, encoding: 'base64' });
  }
  HEX_RUN.lastIndex = 0;
  for (let match = HEX_RUN.exec(content); match !== null && found.length < MAX_LITERALS && budget > 0; match = HEX_RUN.exec(content)) {
    const literal = match[0];
    if (literal.length < MIN_HEX || literal.length > MAX_ENCODED || literal.length % 2 === 1) continue;
    if (!isBoundary(content, match.index - 1) || !isBoundary(content, match.index + literal.length) || !pairsCouldBeText(literal)) continue;
    const text = asText(Buffer.from(literal, 'hex'));
    if (text === undefined) continue;
    budget -= text.length;
    found.push({ start: match.index, end: match.index + literal.length, text, encoding: 'hex' });
  }
  return found.sort((left, right) => left.start - right.start);
}
