/** The encodings a byte-order mark names, and UTF-8 without one. */
export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/**
 * A file's bytes as text, or why they are not text a rule can read. A `.ts` file written as UTF-16
 * with a byte-order mark compiles (tsc reads the mark) but read as UTF-8 it is NUL-riddled noise in
 * which no pattern finds its console.log: every rule must read the text the compiler reads.
 */
export type DecodedText =
  | { readonly kind: 'text'; readonly text: string; readonly encoding: TextEncodingName }
  | { readonly kind: 'undecodable'; readonly encoding: TextEncodingName; readonly reason: string };

function startsWith(bytes: Uint8Array, mark: readonly number[]): boolean {
  return bytes.length >= mark.length && mark.every((byte, at) => bytes[at] === byte);
}

/** The encoding a byte-order mark names (UTF-32 is tested first: its little-endian mark begins like UTF-16's). */
function encodingOf(bytes: Uint8Array): { encoding: TextEncodingName; markLength: number } {
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) return { encoding: 'utf-32le', markLength: 4 };
  if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) return { encoding: 'utf-32be', markLength: 4 };
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8-bom', markLength: 3 };
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le', markLength: 2 };
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be', markLength: 2 };
  return { encoding: 'utf-8', markLength: 0 };
}

function decodeUtf32(body: Uint8Array, littleEndian: boolean): string | undefined {
  if (body.length % 4 !== 0) return undefined;
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const parts: string[] = [];
  for (let at = 0; at < body.length; at += 4) {
    const point = view.getUint32(at, littleEndian);
    if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return undefined;
    parts.push(String.fromCodePoint(point));
  }
  return parts.join('');
}

function decodeStrict(label: 'utf-8' | 'utf-16le' | 'utf-16be', body: Uint8Array): string | undefined {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** Why bytes with NUL characters that are no UTF-16 or UTF-32 are refused where a content rule must read them. */
const NUL_REASON = 'not text: it holds NUL bytes and reads as neither UTF-16 nor UTF-32; a rule cannot read it; write it as UTF-8';

/** How many of the code units have a zero byte at `position` (0 to `width` - 1). */
function zerosAt(body: Uint8Array, width: number, position: number): number {
  let zeros = 0;
  for (let at = position; at < body.length; at += width) if (body[at] === 0) zeros += 1;
  return zeros;
}

/**
 * UTF-16 or UTF-32 without a byte-order mark, recognised by where its zero bytes fall (ASCII text in
 * UTF-16LE is every other byte zero): valid UTF-8 too, NUL for NUL, so read as UTF-8 a pattern finds
 * nothing in it while the compiler or a checkout reads the plain text. Text whose zeros fit no such
 * layout is not text.
 */
function withoutMark(body: Uint8Array): DecodedText {
  const units32 = Math.floor(body.length / 4);
  if (body.length % 4 === 0 && units32 > 0) {
    if (zerosAt(body, 4, 3) === units32 && zerosAt(body, 4, 2) * 2 >= units32) {
      const text = decodeUtf32(body, true);
      if (text !== undefined) return { kind: 'text', text, encoding: 'utf-32le' };
    }
    if (zerosAt(body, 4, 0) === units32 && zerosAt(body, 4, 1) * 2 >= units32) {
      const text = decodeUtf32(body, false);
      if (text !== undefined) return { kind: 'text', text, encoding: 'utf-32be' };
    }
  }
  const units16 = Math.floor(body.length / 2);
  if (body.length % 2 === 0 && units16 > 0) {
    const odd = zerosAt(body, 2, 1);
    const even = zerosAt(body, 2, 0);
    const label = odd * 2 >= units16 && even * 10 < units16 ? 'utf-16le' : even * 2 >= units16 && odd * 10 < units16 ? 'utf-16be' : undefined;
    const text = label === undefined ? undefined : decodeStrict(label, body);
    if (label !== undefined && text !== undefined) return { kind: 'text', text, encoding: label };
  }
  return { kind: 'undecodable', encoding: 'utf-8', reason: NUL_REASON };
}

/** Why bytes without a mark that are not UTF-8 are refused where a content rule must read them. */
export const NOT_UTF8_REASON = 'not valid UTF-8 text: a rule cannot read it; write it as UTF-8';

/**
 * Decodes by the byte-order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE), the mark itself dropped. Bytes a
 * mark promises but that are not valid in its encoding are undecodable, and so are bytes without a
 * mark that are not valid UTF-8: a gate refuses them where a content rule's globs reach rather than
 * guess (a binary file no such rule reaches, an image, is judged by its path alone).
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const { encoding, markLength } = encodingOf(bytes);
  const body = bytes.subarray(markLength);
  let text: string | undefined;
  switch (encoding) {
    case 'utf-8':
      text = decodeStrict('utf-8', body);
      if (text === undefined) return { kind: 'undecodable', encoding, reason: NOT_UTF8_REASON };
      if (text.includes('\0')) return withoutMark(body);
      break;
    case 'utf-8-bom':
      text = decodeStrict('utf-8', body);
      break;
    case 'utf-16le':
    case 'utf-16be':
      text = body.length % 2 === 0 ? decodeStrict(encoding, body) : undefined;
      break;
    case 'utf-32le':
    case 'utf-32be':
      text = decodeUtf32(body, encoding === 'utf-32le');
      break;
  }
  if (text === undefined)
    return {
      kind: 'undecodable',
      encoding,
      reason: `not valid ${encoding.toUpperCase()} text, though its byte-order mark names ${encoding.toUpperCase()}: a rule cannot read it; write it as UTF-8`,
    };
  return { kind: 'text', text, encoding };
}

/**
 * The text a rule reads. An undecodable file is given as U+FFFD replacement characters in place of
 * its bytes, with a line that says so: a rule still sees everything that could be decoded, and the
 * gate refuses the file through `decodeText` where it can say why.
 */
export function readText(bytes: Uint8Array): string {
  const decoded = decodeText(bytes);
  if (decoded.kind === 'text') return decoded.text;
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}
