/**
 * The value JavaScript gives an identifier or a string's body once its escapes are read, so
 * `\u0063onsole`, `'\x6cog'` and `'l\og'` are the names they spell. Never throws: an escape that
 * is not well formed is kept as written.
 */
export function decodeEscapes(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index] as string;
    if (character !== '\\' || index + 1 >= raw.length) {
      out += character;
      continue;
    }
    const next = raw[index + 1] as string;
    index++;
    switch (next) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case '\n':
        break;
      case '\r':
        if (raw[index + 1] === '\n') index++;
        break;
      // A line continuation ends at any line terminator, the line and paragraph separators included.
      case '\u2028':
      case '\u2029':
        break;
      case 'x': {
        const hex = raw.slice(index + 1, index + 3);
        if (/^[0-9a-fA-F]{2}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          index += 2;
        } else out += '\\x';
        break;
      }
      case 'u': {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(raw.slice(index + 1, index + 10));
        const plain = /^[0-9a-fA-F]{4}/.exec(raw.slice(index + 1, index + 5));
        const code = braced !== null ? parseInt(braced[1] as string, 16) : plain !== null ? parseInt(plain[0], 16) : undefined;
        if (code !== undefined && code <= 0x10ffff) {
          out += String.fromCodePoint(code);
          index += braced !== null ? braced[0].length : 4;
        } else out += '\\u';
        break;
      }
      default: {
        const octal = /^[0-7]{1,3}/.exec(raw.slice(index, index + 3));
        if (octal !== null && next !== '8' && next !== '9') {
          const digits = parseInt(octal[0], 8) > 0o377 ? octal[0].slice(0, 2) : octal[0];
          out += String.fromCharCode(parseInt(digits, 8));
          index += digits.length - 1;
        } else out += next;
      }
    }
  }
  return out;
}
