import { classifyCredentialName } from './credential-name.js';
import type { CredentialKind } from './credential-name.js';
import { fileStyleOf } from './file-style.js';
import type { FileStyle } from './file-style.js';
import { isPlausibleSecret, isPlausibleUrlPassword, looksLikeAwsSecret, MIN_SECRET_LENGTH } from './literal-value.js';
import { keywordProbe, probeTable, readOnce } from './one-pass.js';
import type { ProbeTable } from './one-pass.js';
import type { DetectedSecret } from './secret-finding.js';

/*
 * A hand-written scanner rather than one big regular expression: every step from a keyword hit
 * reads a bounded number of characters and the scan never moves backwards past a consumed
 * literal, so the whole pass is linear in the content however hostile it is.
 */

/** Every name the detector judges holds one of these, in any case: without one it can find no assignment. */
export const CREDENTIAL_KEYWORDS: readonly string[] = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential', 'creds', 'bearer'];
let keywordsOnly: ProbeTable | undefined;

/**
 * Where each credential keyword starts and ends in the content, in any case, as pairs by rising
 * start. No keyword is a prefix of another, so at most one starts at any position.
 */
function keywordsIn(content: string): Int32Array {
  keywordsOnly ??= probeTable(CREDENTIAL_KEYWORDS.map(keywordProbe));
  return readOnce(content, keywordsOnly).keywords;
}
const MAX_NAME = 64;
const MAX_VALUE = 1024;
const MAX_BLANKS = 16;
const MAX_TYPE_ANNOTATION = 64;
const MAX_FALLBACK_LOOKAHEAD = 200;
const MAX_SCHEME = 32;
const MAX_USER_INFO = 256;

const AUTH_SCHEME = /^(?:bearer|basic|token)\s+/i;
/** A name ending in `key` that names no credential by itself (`key`, `s3Key`): judged by the value's shape. */
const BARE_KEY = 'bare key';

/** What a name found around a keyword holds; `bearer` starts a token after a space rather than an assignment. */
interface NameVerdict {
  readonly name: string;
  readonly kind: CredentialKind | typeof BARE_KEY | undefined;
  readonly bearer: boolean;
}

/**
 * The same few names recur all through a file; each is classified once. The last few are matched
 * in place, without slicing the name out: a keyword hit that allocates nothing never wakes the
 * collector, which is what kept the scan's time from growing with the content's length alone.
 */
const MAX_REMEMBERED_NAMES = 4096;
const RECENT_NAMES = 4;
const rememberedNames = new Map<string, NameVerdict>();
const recentNames: NameVerdict[] = [];
let nextRecent = 0;

function verdictForNameAt(content: string, start: number, end: number): NameVerdict {
  const length = end - start;
  for (const recent of recentNames) {
    if (recent.name.length === length && content.startsWith(recent.name, start)) return recent;
  }
  const name = content.slice(start, end);
  let verdict = rememberedNames.get(name);
  if (verdict === undefined) {
    // A name as plain as `key` (or `s3Key`) holds a credential only when the value has an unmistakable shape.
    const kind = classifyCredentialName(name) ?? (/key$/i.test(name) ? BARE_KEY : undefined);
    verdict = { name, kind, bearer: name.toLowerCase() === 'bearer' };
    if (rememberedNames.size >= MAX_REMEMBERED_NAMES) rememberedNames.clear();
    rememberedNames.set(name, verdict);
  }
  recentNames[nextRecent] = verdict;
  nextRecent = (nextRecent + 1) % RECENT_NAMES;
  return verdict;
}

interface Literal {
  start: number;
  end: number;
}

/** What a read found: maybe a literal, and how far the scan may skip ahead. */
interface Read {
  literal?: Literal;
  resumeAt: number;
  /** An unquoted token holds no other assignment, so even a rejected one is skipped whole. */
  opaque?: boolean;
}

/**
 * Credentials assigned to literals under credential names, bearer tokens, and passwords inside URLs.
 * `keywords` is keywordsIn(content), when a pass over the content found them already.
 */
export function findGenericSecrets(content: string, filePath: string, minEntropy: number, keywords = keywordsIn(content)): DetectedSecret[] {
  const style = fileStyleOf(filePath);
  return [...findAssignedLiterals(content, style, minEntropy, keywords), ...findUrlPasswords(content)];
}

function findAssignedLiterals(content: string, style: FileStyle, minEntropy: number, keywords: Int32Array): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  const nextExpressionStop = createExpressionStopFinder(content);
  // Keyword hits before `resumeAt` lie inside a name or a value already read. The name around a
  // keyword is found from the keyword's end alone (a name is at most MAX_NAME characters either way).
  let resumeAt = 0;
  for (let hit = 0; hit < keywords.length; hit += 2) {
    if ((keywords[hit] as number) < resumeAt) continue;
    const keywordEnd = keywords[hit + 1] as number;
    const nameStart = expandNameLeft(content, keywordEnd);
    const nameEnd = expandNameRight(content, keywordEnd);
    resumeAt = nameEnd;
    if (nameEnd - nameStart > MAX_NAME) continue;
    const { kind, bearer: isBearer } = verdictForNameAt(content, nameStart, nameEnd);
    if (kind === undefined) continue;
    const read = isBearer ? readBearerToken(content, nameEnd) : readAssignedLiteral(content, nameStart, nameEnd, style, nextExpressionStop);
    const literal = read?.literal;
    if (read === undefined || literal === undefined) continue;
    const secret = judgeLiteral(content, literal, kind, isBearer, minEntropy);
    if (secret === undefined) {
      // A rejected quoted literal may hold other assignments (escaped JSON); look inside it.
      resumeAt = Math.max(resumeAt, read.opaque === true ? read.resumeAt : literal.start);
      continue;
    }
    resumeAt = Math.max(resumeAt, read.resumeAt);
    found.push(secret);
  }
  return found;
}

/** The literal as a finding, or undefined when it is no plausible secret; a too-short one is rejected before it is copied. */
function judgeLiteral(
  content: string,
  literal: Literal,
  kind: CredentialKind | typeof BARE_KEY,
  isBearer: boolean,
  minEntropy: number,
): DetectedSecret | undefined {
  // A scheme prefix only shortens the value, and both judgements ask for at least MIN_SECRET_LENGTH characters.
  if (literal.end - literal.start < MIN_SECRET_LENGTH) return undefined;
  let start = literal.start;
  let value = content.slice(start, literal.end);
  const scheme = AUTH_SCHEME.exec(value);
  if (scheme !== null) {
    start += scheme[0].length;
    value = value.slice(scheme[0].length);
  }
  if (kind === BARE_KEY ? !looksLikeAwsSecret(value) : !isPlausibleSecret(value, minEntropy)) return undefined;
  const detector = kind === BARE_KEY ? 'AWS secret access key' : detectorFor(isBearer || scheme !== null ? 'bearer' : kind);
  return { detector, start, end: literal.end, value };
}

function detectorFor(kind: CredentialKind | 'bearer'): string {
  if (kind === 'bearer') return 'bearer token';
  if (kind === 'authorization header') return 'authorization header credential';
  return `${kind} literal`;
}

function isNameCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || // _
    code === 46 || // .
    code === 45 || // -
    code === 36 // $
  );
}

function isBlankCode(code: number): boolean {
  return code === 32 || code === 9;
}

function isQuoteCode(code: number): boolean {
  return code === 34 || code === 39 || code === 96; // " ' `
}

function expandNameLeft(content: string, index: number): number {
  const limit = Math.max(0, index - MAX_NAME - 1);
  let position = index;
  while (position > limit && isNameCode(content.charCodeAt(position - 1))) position--;
  return position;
}

function expandNameRight(content: string, index: number): number {
  const limit = Math.min(content.length, index + MAX_NAME + 1);
  let position = index;
  while (position < limit && isNameCode(content.charCodeAt(position))) position++;
  return position;
}

function skipBlanks(content: string, index: number): number {
  const limit = Math.min(content.length, index + MAX_BLANKS);
  let position = index;
  while (position < limit && isBlankCode(content.charCodeAt(position))) position++;
  return position;
}

/** `name = value`, `name: value`, `"name": value`, `name := value`, `'name' => value`, `ENV NAME value`. */
function readAssignedLiteral(
  content: string,
  nameStart: number,
  nameEnd: number,
  style: FileStyle,
  nextExpressionStop: (from: number) => number,
): Read | undefined {
  let position = nameEnd;
  if (isQuoteCode(content.charCodeAt(position))) position++;
  if (content.charCodeAt(position) === 93 /* ] */) position++;
  const afterName = position;
  position = skipBlanks(content, position);
  const mark = content.charCodeAt(position);
  if ((mark === 63 /* ? */ || mark === 33) /* ! */ && content.charCodeAt(position + 1) === 58 /* : */) position++;
  const character = content.charCodeAt(position);
  const next = content.charCodeAt(position + 1);
  let operator: ':' | '=' | ' ';
  if (character === 58 /* : */ && next === 61 /* = */) {
    operator = '=';
    position += 2;
  } else if (character === 61 && next === 62 /* > */) {
    operator = '=';
    position += 2;
  } else if (character === 61 && next !== 61) {
    operator = '=';
    position += 1;
  } else if (character === 58 && next !== 58) {
    operator = ':';
    position += 1;
  } else if (style === 'dockerfile' && position > afterName && isDockerEnvInstruction(content, nameStart)) {
    operator = ' ';
  } else {
    return undefined;
  }
  position = skipBlanks(content, position);
  if (isQuoteCode(content.charCodeAt(position))) return readQuoted(content, position);
  if (style !== 'code') return readUnquoted(content, position);
  if (operator === ':') {
    // `password: string = "..."`: a type annotation between the name and the literal.
    const afterAnnotation = skipTypeAnnotation(content, position);
    if (afterAnnotation !== undefined) {
      const literalAt = skipBlanks(content, afterAnnotation);
      if (isQuoteCode(content.charCodeAt(literalAt))) return readQuoted(content, literalAt);
    }
  }
  return readFallbackLiteral(content, position, nextExpressionStop);
}

function isDockerEnvInstruction(content: string, nameStart: number): boolean {
  let position = nameStart;
  const limit = Math.max(0, nameStart - MAX_BLANKS);
  while (position > limit && isBlankCode(content.charCodeAt(position - 1))) position--;
  if (position === nameStart || position < 3) return false;
  const instruction = content.slice(position - 3, position).toUpperCase();
  if (instruction !== 'ENV' && instruction !== 'ARG') return false;
  const before = content.charCodeAt(position - 4);
  return position === 3 || before === 10 || isBlankCode(before);
}

function readQuoted(content: string, quoteAt: number): Read {
  const quote = content.charCodeAt(quoteAt);
  const limit = Math.min(content.length, quoteAt + 1 + MAX_VALUE);
  let position = quoteAt + 1;
  while (position < limit) {
    const code = content.charCodeAt(position);
    if (code === 92) {
      position += 2;
      continue;
    }
    if (code === quote) return { literal: { start: quoteAt + 1, end: position }, resumeAt: position + 1 };
    if (code === 10 && quote !== 96) return { resumeAt: position };
    position++;
  }
  return { resumeAt: position };
}

function isUnquotedTerminator(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 13 ||
    code === 10 ||
    code === 44 /* , */ ||
    code === 59 /* ; */ ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 41 /* ) */ ||
    code === 125 /* } */ ||
    code === 93 /* ] */
  );
}

/** A config-style value: up to the next blank or delimiter; `Bearer abc` is read as one value. */
function readUnquoted(content: string, start: number): Read | undefined {
  const limit = Math.min(content.length, start + MAX_VALUE);
  let position = start;
  while (position < limit && !isUnquotedTerminator(content.charCodeAt(position))) position++;
  if (position === start) return undefined;
  if (content.charCodeAt(position) === 32 && /^(?:bearer|basic|token)$/i.test(content.slice(start, position))) {
    position++;
    while (position < limit && !isUnquotedTerminator(content.charCodeAt(position))) position++;
  }
  return { literal: { start, end: position }, resumeAt: position, opaque: true };
}

function skipTypeAnnotation(content: string, start: number): number | undefined {
  const limit = Math.min(content.length, start + MAX_TYPE_ANNOTATION);
  for (let position = start; position < limit; position++) {
    const code = content.charCodeAt(position);
    if (code === 61 /* = */) {
      const next = content.charCodeAt(position + 1);
      return next === 61 || next === 62 || position === start ? undefined : position + 1;
    }
    if (!isTypeAnnotationCode(code)) return undefined;
  }
  return undefined;
}

/**
 * For rising start positions, the first `||`, `??`, newline or `;` at most MAX_FALLBACK_LOOKAHEAD
 * characters on, or -1. It remembers the stretch already read without a stop, so however many
 * keyword hits share a line each character is read about once, and never further than the
 * lookahead: a long line is not read to its end ahead of the scan.
 */
function createExpressionStopFinder(content: string): (from: number) => number {
  // No stop lies in [clearFrom, clearTo).
  let clearFrom = 0;
  let clearTo = 0;
  return (from) => {
    const continues = from >= clearFrom && from <= clearTo;
    let position = continues ? clearTo : from;
    const limit = Math.min(content.length, from + MAX_FALLBACK_LOOKAHEAD + 1);
    while (position < limit && !isExpressionStop(content, position)) position++;
    if (!continues) clearFrom = from;
    clearTo = position;
    return position < limit ? position : -1;
  };
}

function isExpressionStop(content: string, position: number): boolean {
  const code = content.charCodeAt(position);
  if (code === 10 || code === 59) return true;
  const next = content.charCodeAt(position + 1);
  return (code === 124 && next === 124) || (code === 63 && next === 63);
}

/** `apiKey = process.env.API_KEY || "sk-…"`: the literal after `||` or `??` is hardcoded all the same. */
function readFallbackLiteral(content: string, start: number, nextExpressionStop: (from: number) => number): Read | undefined {
  const stop = nextExpressionStop(start);
  if (stop === -1) return undefined;
  const code = content.charCodeAt(stop);
  if (code !== 124 && code !== 63) return undefined;
  const literalAt = skipBlanks(content, stop + 2);
  return isQuoteCode(content.charCodeAt(literalAt)) ? readQuoted(content, literalAt) : undefined;
}

function isTokenCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 46 ||
    code === 95 ||
    code === 126 ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 45 // . _ ~ + / = -
  );
}

function isTypeAnnotationCode(code: number): boolean {
  return isNameCode(code) || code === 60 || code === 62 || code === 91 || code === 93 || code === 124 || code === 44 || code === 63 || code === 32; // < > [ ] | , ? space
}

function readBearerToken(content: string, nameEnd: number): Read | undefined {
  if (content.charCodeAt(nameEnd) !== 32) return undefined;
  const start = nameEnd + 1;
  const limit = Math.min(content.length, start + MAX_VALUE);
  let position = start;
  while (position < limit && isTokenCode(content.charCodeAt(position))) position++;
  if (position - start < MIN_SECRET_LENGTH) return undefined;
  return { literal: { start, end: position }, resumeAt: position, opaque: true };
}

function isSchemeCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46;
}

function endsUserInfo(code: number): boolean {
  return (
    code === 47 /* / */ ||
    code === 63 /* ? */ ||
    code === 35 /* # */ ||
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 92 /* \ */
  );
}

/** `postgres://app:s3cr3t@db:5432/app`, `redis://:pass@cache`, `https://user:pass@host`. */
function findUrlPasswords(content: string): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  for (let separator = content.indexOf('://'); separator !== -1; separator = content.indexOf('://', separator + 3)) {
    let schemeStart = separator;
    const schemeLimit = Math.max(0, separator - MAX_SCHEME);
    while (schemeStart > schemeLimit && isSchemeCode(content.charCodeAt(schemeStart - 1))) schemeStart--;
    if (schemeStart === separator || !/[A-Za-z]/.test(content[schemeStart] ?? '')) continue;
    const userInfoStart = separator + 3;
    const limit = Math.min(content.length, userInfoStart + MAX_USER_INFO);
    let colon = -1;
    let position = userInfoStart;
    while (position < limit) {
      const code = content.charCodeAt(position);
      if (code === 64 /* @ */ || endsUserInfo(code)) break;
      if (code === 58 && colon === -1) colon = position;
      position++;
    }
    if (content.charCodeAt(position) !== 64 || colon === -1) continue;
    const user = content.slice(userInfoStart, colon);
    const password = content.slice(colon + 1, position);
    if (!isPlausibleUrlPassword(password, user)) continue;
    found.push({ detector: 'password in a connection URL', start: colon + 1, end: position, value: password });
  }
  return found;
}
