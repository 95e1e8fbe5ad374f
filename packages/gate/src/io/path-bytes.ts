// File names are bytes. git's `-z` output gives them as they are stored, and a name need not be
// UTF-8: decoded as UTF-8, every invalid byte becomes U+FFFD, so `src/mod\xff.ts` and
// `src/mod\xfe.ts` compare equal and one takes the other's test. A path is kept as a string that
// keeps every byte instead: valid UTF-8 reads as the text it is (globs and messages see the same
// name as before), and each byte that is not part of a valid sequence becomes a lone surrogate
// U+DC80..U+DCFF (Python's `surrogateescape`), which valid UTF-8 never decodes to. Two names with
// different bytes never give the same string, and pathBytes gives the bytes back.

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The length of the valid UTF-8 sequence at `index` (1-4), or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const first = bytes[index] as number;
  if (first < 0x80) return 1;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return continuation(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    // No overlong form (E0 A0..), no UTF-16 surrogate (ED ..9F).
    const low = first === 0xe0 ? 0xa0 : 0x80;
    const high = first === 0xed ? 0x9f : 0xbf;
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const low = first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xf4 ? 0x8f : 0xbf;
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

/** A file name's bytes as a string that keeps every byte (see above). */
export function pathText(bytes: Uint8Array): string {
  try {
    return STRICT.decode(bytes);
  } catch {
    // not UTF-8 throughout: decoded sequence by sequence below
  }
  let text = '';
  let index = 0;
  while (index < bytes.length) {
    const length = sequenceLength(bytes, index);
    if (length === 0) {
      text += String.fromCharCode(0xdc00 + (bytes[index] as number));
      index += 1;
    } else {
      text += STRICT.decode(bytes.subarray(index, index + length));
      index += length;
    }
  }
  return text;
}

/** The bytes of a name pathText gave (a lone surrogate U+DC80..U+DCFF is the byte it stands for). */
export function pathBytes(path: string): Buffer {
  if (!/[\udc80-\udcff]/.test(path)) return Buffer.from(path, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const character of path) {
    const code = character.charCodeAt(0);
    if (character.length === 1 && code >= 0xdc80 && code <= 0xdcff) {
      parts.push(Buffer.from(run, 'utf8'), Buffer.from([code - 0xdc00]));
      run = '';
    } else run += character;
  }
  parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** git's NUL-separated output (`-z`) as fields, each decoded by pathText; the empty fields kept. */
export function nulFields(output: Buffer): string[] {
  const fields: string[] = [];
  let start = 0;
  for (;;) {
    const end = output.indexOf(0, start);
    if (end < 0) {
      fields.push(pathText(output.subarray(start)));
      return fields;
    }
    fields.push(pathText(output.subarray(start, end)));
    start = end + 1;
  }
}

/** git's NUL-separated list of paths (`ls-tree -z --name-only`, `ls-files -z`), the empty fields left out. */
export function nulPaths(output: Buffer): string[] {
  return nulFields(output).filter((path) => path !== '');
}
