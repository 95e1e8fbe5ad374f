import { decodeText, readText } from '@holdfast/core/rules';

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
