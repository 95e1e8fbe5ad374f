import { shannonEntropy } from './entropy.js';

/** Shorter literals are too weak to tell a secret from a word; a real credential is rarely this short. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Words a stand-in is written in (`your-api-key-here`, `REPLACE_WITH_YOUR_TOKEN`, `changeme123`).
 * They count only as whole segments between separators, never inside a run of random characters:
 * a real key holds `test` or `here` by chance as often as any other four letters.
 */
const PLACEHOLDER_WORDS = new Set([
  'your',
  'my',
  'the',
  'a',
  'an',
  'with',
  'goes',
  'here',
  'not',
  'real',
  'example',
  'sample',
  'dummy',
  'fake',
  'test',
  'testing',
  'mock',
  'demo',
  'placeholder',
  'redacted',
  'todo',
  'fixme',
  'insert',
  'replace',
  'change',
  'changeme',
  'me',
  'foo',
  'bar',
  'baz',
  'foobar',
  'lorem',
  'ipsum',
  'secret',
  'password',
  'pass',
  'token',
  'key',
  'api',
  'value',
  'notasecret',
  'xxx',
  'xxxx',
  'abc',
  'local',
  'dev',
  'development',
  'default',
]);
/** Longer than this, a segment is random material, not a word or a counter next to one. */
const MAX_FILLER_SEGMENT = 8;

const NON_VALUES = new Set(['none', 'null', 'nil', 'undefined', 'false', 'true', 'string', 'number', 'object']);

/**
 * Published documentation values, safe by construction (the jwt.io "John Doe" token payload).
 * Kept as fragments: the whole token would itself look like a credential to other scanners.
 */
const WELL_KNOWN_PUBLIC_FRAGMENTS = [
  'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ',
  'IOSFODNN7EXAMPLE',
  'K7MDENG/bPxRfiCYEXAMPLEKEY',
];

/** A reference to somewhere else (`${VAR}`, `$VAR`, `{{ var }}`, `%(var)s`, `<VALUE>`), not a value. */
function isIndirection(value: string): boolean {
  return (
    value.includes('${') ||
    value.includes('{{') ||
    value.includes('$(') ||
    value.includes('%(') ||
    /^\$[A-Za-z_]/.test(value) ||
    /^%[A-Za-z_]+%$/.test(value) ||
    value.includes('<') ||
    value.includes('>') ||
    value.startsWith('[') ||
    value.includes('process.env') ||
    value.includes('os.environ')
  );
}

/** A word of the stand-in vocabulary, optionally followed by a counter (`changeme123`, `test1`). */
function isPlaceholderSegment(segment: string): boolean {
  const word = /^([a-z]+)\d{0,6}$/.exec(segment)?.[1];
  return word !== undefined && PLACEHOLDER_WORDS.has(word);
}

/**
 * A stand-in, judged by its shape: an elision (`...`, `…`), a run of one character (`xxxx`,
 * `****`, `0000`), or words of the stand-in vocabulary joined by separators with nothing random
 * beside them (`your-api-key-here`, `example-secret-9f8e7d`). Published documentation values too.
 */
export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (NON_VALUES.has(lower)) return true;
  if (lower.includes('...') || lower.includes('…') || /([a-z0-9])\1{3,}|([^a-z0-9])\2{2,}/.test(lower)) return true;
  const segments = lower.split(/[-_.:/+\s]+/).filter((segment) => segment !== '');
  if (segments.some(isPlaceholderSegment) && segments.every((segment) => isPlaceholderSegment(segment) || segment.length <= MAX_FILLER_SEGMENT)) return true;
  return WELL_KNOWN_PUBLIC_FRAGMENTS.some((fragment) => value.includes(fragment));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AWS_SECRET_SHAPE = /^[A-Za-z0-9/+]{40}$/;

/**
 * An AWS secret access key by its shape alone: 40 characters of base64 mixing upper case, lower
 * case and digits. Strict enough to hold even under a name as plain as `key`.
 */
export function looksLikeAwsSecret(value: string): boolean {
  return AWS_SECRET_SHAPE.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value) && !isPlaceholder(value);
}

/**
 * Shaped like a name rather than a secret: `auth_token`, `app.session.key`, `API_TOKEN`, `getToken`,
 * a member access or a call. Secrets mix case with digits or symbols; names are words and separators.
 */
function looksLikeName(value: string): boolean {
  return (
    /^[a-z]+(?:[._:/-][a-z]+)+$/.test(value) ||
    /^[A-Z]+(?:_[A-Z]+)*$/.test(value) ||
    /^[a-z]+(?:[A-Z][a-z]+)+$/.test(value) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) ||
    value.includes('(')
  );
}

/** A path or a URL without a password in it: `/etc/app/key.pem`, `https://example.org/token`. */
function looksLikeLocation(value: string): boolean {
  return value.startsWith('/') || value.startsWith('./') || value.startsWith('../') || value.startsWith('~/') || /^[a-z][a-z0-9+.-]*:\/\/[^@]*$/i.test(value);
}

/** The judgement the generic detector makes about a literal assigned to a credential name. */
export function isPlausibleSecret(value: string, minEntropy: number): boolean {
  if (value.length < MIN_SECRET_LENGTH) return false;
  if (/\s/.test(value)) return false;
  if (isIndirection(value) || isPlaceholder(value) || looksLikeName(value) || looksLikeLocation(value) || UUID.test(value)) return false;
  return shannonEntropy(value) >= minEntropy;
}

/**
 * A password inside a URL's user-info is held to a lower bar than a bare literal: the URL
 * structure is itself the evidence, so no entropy is asked, only that it is not a stand-in.
 */
export function isPlausibleUrlPassword(password: string, user: string): boolean {
  if (password.length < 6 || password === user) return false;
  if (/^(.)\1+$/.test(password)) return false;
  if (isIndirection(password) || isPlaceholder(password)) return false;
  return !COMMON_DEFAULT_PASSWORDS.has(password.toLowerCase());
}

/** Defaults of local development images (postgres/postgres, root/root); they guard nothing. */
const COMMON_DEFAULT_PASSWORDS = new Set(['postgres', 'mysql', 'root', 'admin', 'secret', 'guest', 'pass', 'passw0rd']);
