/**
 * A refusal written as prose instead of the JSON decline. The classifier is deliberately narrow: a
 * first-person refusal verb aimed at the work ("I decline", "I won't do this", "I can't help with
 * that request"). "I won't forget the tests" or "I can't find the file" are not refusals, and a
 * refusal that is only conditional ("I can't do this without the file") is not one either. A miss
 * stays `unparseable` (fail closed); a false hit would hide a broken reply, so precision wins.
 */
const DECLINE =
  /\bI\b(?:\s+(?:must|will|have\s+to|need\s+to|shall|am\s+going\s+to|would)|['’]ll)?(?:\s+(?:respectfully|politely|therefore))?\s+(?:decline|refuse)(?:\s*(?=[.!;,:]|$)|\s+(?:to\s+(?:do|comply|help|assist|proceed|complete|carry\s+out|perform|implement|follow|fulfil|fulfill|go\s+ahead)|this|that|the\s+(?:task|request|ticket)|your\s+request|it)\b)/im;

const NEGATED =
  /\bI\b\s*(?:can(?:'|’)?t|cannot|can\s+not|won(?:'|’)?t|will\s+not|am\s+not\s+able\s+to|(?:'|’)m\s+not\s+able\s+to|am\s+unable\s+to|(?:'|’)m\s+unable\s+to|must\s+not|shouldn(?:'|’)?t|should\s+not|am\s+not\s+going\s+to|(?:'|’)m\s+not\s+going\s+to)\s+(?:help\s+with|assist\s+with|comply\s+with|do|complete|carry\s+out|perform|proceed\s+with|fulfil|fulfill|go\s+ahead\s+with)\s+(?:this|that|it|the\s+(?:task|request|ticket|change|changes)|your\s+request|what\s+(?:you|the\s+ticket)\s+(?:ask|asks|asked))\b(?!\s+(?:without|until|unless|before|yet|first|once|if|when|after))/im;

/** At most this much of the reply is read: a refusal says so early, and the scan stays linear. */
const READ_CHARS = 4_000;

/**
 * The sentence that refuses, when the reply clearly refuses in prose; undefined otherwise. Only
 * meant for a reply with no actions to read.
 */
export function readProseRefusal(text: string): string | undefined {
  const head = text.slice(0, READ_CHARS);
  const match = DECLINE.exec(head) ?? NEGATED.exec(head);
  if (match === null) return undefined;
  return sentenceAround(head, match.index, match.index + match[0].length);
}

function sentenceAround(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && !/[.!?\n]/.test(text[from - 1]!)) from -= 1;
  let to = end;
  while (to < text.length && !/[.!?\n]/.test(text[to]!)) to += 1;
  if (to < text.length && text[to] !== '\n') to += 1;
  const sentence = text.slice(from, to).trim();
  return sentence.length > 300 ? `${sentence.slice(0, 297)}...` : sentence;
}
