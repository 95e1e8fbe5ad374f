/** Lower-case, punctuation to spaces, whitespace collapsed: for comparing what people wrote. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
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
