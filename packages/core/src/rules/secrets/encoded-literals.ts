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

/** Per ASCII code: 1 a base64 character (either alphabet), 2 a hex digit too. */
const CLASSES = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') CLASSES[character.charCodeAt(0)] = 1;
for (const character of '0123456789abcdefABCDEF') CLASSES[character.charCodeAt(0)] = 3;

/**
 * Where a base64 quad's first character encodes a byte below 0x80 it is one of `A`–`Z`, `a`–`f`:
 * text in ASCII passes at every quad, random material (identifiers, hashes) seldom at six in a row.
 */
function quadsCouldBeAscii(content: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 4) {
    const code = content.charCodeAt(index);
    if (!((code >= 65 && code <= 90) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

/** Printable hex text: every byte from 0x20 to 0x7e (or tab, newline), so every pair starts 0, 2 to 7. */
function pairsCouldBeText(content: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 2) {
    const code = content.charCodeAt(index);
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

function isEncodingCode(content: string, index: number): boolean {
  const code = content.charCodeAt(index);
  return code < 128 && CLASSES[code] !== 0;
}

/**
 * Every base64 or hex literal of the content that decodes to text, in order of position. Runs shorter
 * than MIN_BASE64 are skipped without reading them whole: from a position after a non-encoding
 * character, only the character MIN_BASE64 - 1 on is looked at, and the run is read only if that one
 * belongs to it (ordinary code, made of short words, is read at a fraction of its characters).
 */
export function decodeLiterals(content: string): DecodedLiteral[] {
  const found: DecodedLiteral[] = [];
  let budget = MAX_DECODED_TOTAL;
  const length = content.length;
  // Invariant: the character before `index` is not an encoding character (or `index` is 0).
  let index = 0;
  while (index + MIN_BASE64 - 1 < length && found.length < MAX_LITERALS && budget > 0) {
    const probe = index + MIN_BASE64 - 1;
    if (!isEncodingCode(content, probe)) {
      index = probe + 1;
      continue;
    }
    let start = probe;
    while (start > index && isEncodingCode(content, start - 1)) start--;
    let runEnd = probe + 1;
    let hexOnly = true;
    for (let at = start; at < runEnd; at++) if (CLASSES[content.charCodeAt(at)] !== 3) hexOnly = false;
    while (runEnd < length && isEncodingCode(content, runEnd)) {
      if (CLASSES[content.charCodeAt(runEnd)] !== 3) hexOnly = false;
      runEnd++;
    }
    index = runEnd + 1;
    const runLength = runEnd - start;
    if (runLength < MIN_BASE64 || runLength > MAX_ENCODED) continue;
    let end = runEnd;
    while (end < length && end - runEnd < 2 && content.charCodeAt(end) === 61 /* = */) end++;
    const decoded = hexOnly ? decodeHex(content, start, runEnd) : decodeBase64(content, start, runEnd);
    if (decoded === undefined) continue;
    budget -= decoded.length;
    found.push({ start, end: hexOnly ? runEnd : end, text: decoded, encoding: hexOnly ? 'hex' : 'base64' });
  }
  return found;
}

function decodeHex(content: string, start: number, end: number): string | undefined {
  if (end - start < MIN_HEX || (end - start) % 2 === 1 || !pairsCouldBeText(content, start, end)) return undefined;
  return asText(Buffer.from(content.slice(start, end), 'hex'));
}

function decodeBase64(content: string, start: number, end: number): string | undefined {
  if ((end - start) % 4 === 1 || !quadsCouldBeAscii(content, start, end)) return undefined;
  return asText(Buffer.from(content.slice(start, end).replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}
