/** Lower-case, punctuation to spaces, whitespace collapsed: for comparing what people wrote. */
export function normalizeText(text: string): string {
  // Beyond ASCII, lower case and which characters are letters or digits are Unicode's to say.
  if (NON_ASCII.test(text)) {
    return text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  }
  return collapseAscii(text);
}

const NON_ASCII = /[\u0080-\uffff]/;
const ASCII = new TextDecoder();

/**
 * `normalizeText` on ASCII: letters lower-cased and kept with digits, every run of anything else
 * one space, none at either end. Written byte by byte into one buffer: a lower-case copy and a
 * global replace allocate about 18 bytes per character of a long reply (a part and a match record
 * per run), which made scoring grow faster than the reply.
 */
function collapseAscii(text: string): string {
  const bytes = new Uint8Array(text.length);
  let length = 0;
  let gap = false;
  for (let index = 0; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    if (code >= 65 && code <= 90) code += 32;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (gap && length > 0) bytes[length++] = 32;
      gap = false;
      bytes[length++] = code;
    } else gap = true;
  }
  return ASCII.decode(bytes.subarray(0, length));
}

/**
 * Whether a normalised phrase stands whole in a normalised text (bounded by spaces or the ends):
 * what `" text ".includes(" phrase ")` says, without a padded copy of a long reply.
 */
export function containsPhrase(text: string, phrase: string): boolean {
  return text === phrase || text.startsWith(`${phrase} `) || text.endsWith(` ${phrase}`) || text.includes(` ${phrase} `);
}

/** Lower-case with whitespace collapsed, punctuation kept: citations like `npm test` or `src/lib/http.ts`. */
export function normalizeCitationText(text: string): string {
  const lower = text.toLowerCase();
  // Text whose only whitespace is single spaces is already collapsed: a long reply is not rebuilt to say so.
  return (WHITESPACE_TO_COLLAPSE.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
}

const WHITESPACE_TO_COLLAPSE = /[^\S ]| \s/;

const STOPWORDS = new Set(
  'the a an and or but if then than that this these those is are was were be been being it its of to in on at for by with from as we you i they he she our your their my me us them not no do does did so just can could would should will shall may might must have has had into out up over about only also too very more most any all some one'.split(
    ' ',
  ),
);

/** The words that carry meaning: long enough and not a stopword. */
export function contentWords(text: string): string[] {
  return normalizeText(text)
    .split(' ')
    .filter((word) => word.length >= 3 && !STOPWORDS.has(word));
}
