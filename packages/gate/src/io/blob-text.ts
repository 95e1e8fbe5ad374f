import { decodeText, readText } from '@holdfast/core/rules';
import { NO_ATTRIBUTES } from './git-attributes.js';
import type { CheckoutAttributes } from './git-attributes.js';

/** A file's text as a rule reads it, and why it is not text when its bytes did not decode. */
export interface BlobText {
  readonly text: string;
  /** Set when the bytes are neither UTF-8 nor valid in the encoding their byte-order mark names. */
  readonly undecodable: string | undefined;
}

/**
 * What a rule reads from bytes read from disk or from git: the text the compiler reads (see
 * decodeText), or, for bytes that are not text, everything that decodes and why the rest did not, so
 * the content rules whose globs reach the file can refuse it (undecodableResults) while the others
 * still scan what is there.
 */
export function blobText(bytes: Uint8Array): BlobText {
  const decoded = decodeText(bytes);
  return decoded.kind === 'text' ? { text: decoded.text, undecodable: undefined } : { text: readText(bytes), undecodable: decoded.reason };
}

/** Node's name for each encoding holdfast writes out itself, keyed by the spelling git's attribute takes (case and `-`/`_` ignored). */
const ENCODERS: Readonly<Record<string, (text: string) => Buffer>> = {
  UTF8: (text) => Buffer.from(text, 'utf8'),
  UTF16LE: (text) => Buffer.from(text, 'utf16le'),
  UTF16BE: (text) => Buffer.from(text, 'utf16le').swap16(),
  UTF16: (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
  UTF32LE: (text) => utf32(text, true, false),
  UTF32BE: (text) => utf32(text, false, false),
  UTF32: (text) => utf32(text, true, true),
  LATIN1: (text) => Buffer.from(text, 'latin1'),
  ISO88591: (text) => Buffer.from(text, 'latin1'),
  ASCII: (text) => Buffer.from(text, 'latin1'),
  USASCII: (text) => Buffer.from(text, 'latin1'),
};

function utf32(text: string, littleEndian: boolean, mark: boolean): Buffer {
  const points = [...(mark ? '\uFEFF' : ''), ...text];
  const bytes = Buffer.alloc(points.length * 4);
  points.forEach((point, index) =>
    littleEndian ? bytes.writeUInt32LE(point.codePointAt(0) ?? 0, index * 4) : bytes.writeUInt32BE(point.codePointAt(0) ?? 0, index * 4),
  );
  return bytes;
}

/**
 * The text a rule reads of a file stored in git, as a checkout gives it back: `eol=crlf` and
 * `working-tree-encoding` applied by holdfast itself (a filter a repository names is never run), then
 * read like any file (blobText: UTF-16/32 with or without a byte-order mark recognised by content).
 * Why: `working-tree-encoding=UTF-16LE` makes git store plain text re-encoded, noise to a rule, while
 * every checkout writes the plain text back. An encoding holdfast cannot write is undecodable, so a
 * content rule that reaches the file refuses it rather than pass what it could not read.
 */
export function checkoutText(bytes: Uint8Array, attributes: CheckoutAttributes = NO_ATTRIBUTES): BlobText {
  if (attributes === NO_ATTRIBUTES) return blobText(bytes);
  const encoding = attributes.workingTreeEncoding;
  const crlf = attributes.eol === 'crlf' && !attributes.binary;
  if (encoding === undefined && !crlf) return blobText(bytes);
  const stored = blobText(bytes);
  if (stored.undecodable !== undefined && encoding !== undefined)
    return {
      text: stored.text,
      undecodable: `stored as bytes that are not UTF-8 text, though its working-tree-encoding ${encoding} says git keeps it as UTF-8`,
    };
  const text = crlf ? stored.text.replace(/(?<!\r)\n/g, '\r\n') : stored.text;
  if (encoding === undefined) return { text, undecodable: stored.undecodable };
  const encode = ENCODERS[encoding.toUpperCase().replace(/[-_]/g, '')];
  if (encode === undefined)
    return {
      text,
      undecodable: `checked out as ${encoding} (its working-tree-encoding), an encoding holdfast does not read; a rule cannot judge it: use UTF-8 or UTF-16`,
    };
  return blobText(encode(text));
}
