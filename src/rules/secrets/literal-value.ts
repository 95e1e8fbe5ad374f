import { shannonEntropy } from './entropy.js';

/** Shorter literals are too weak to tell a secret from a word; a real credential is rarely this short. */
export const MIN_SECRET_LENGTH = 8;

/** Substrings that mark a value as a stand-in written for people, not a credential. */
const PLACEHOLDER_MARKERS = [
  'your', 'xxx', '***', '...', '…', 'changeme', 'change_me', 'change-me', 'example', 'dummy', 'placeholder',
  'redacted', 'sample', 'fake', 'test', 'mock', 'todo', 'insert', 'replace', 'here', 'foobar', 'password',
  'lorem', 'secret_value', 'notasecret',
];

const NON_VALUES = new Set(['none', 'null', 'nil', 'undefined', 'false', 'true', 'string', 'number', 'object']);

/**
 * Published documentation values, safe by construction (the jwt.io "John Doe" token payload).
 * Kept as fragments: the whole token would itself look like a credential to other scanners.
 */
const WELL_KNOWN_PUBLIC_FRAGMENTS = ['eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ'];

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

function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (NON_VALUES.has(lower)) return true;
  if (PLACEHOLDER_MARKERS.some((marker) => lower.includes(marker))) return true;
  return WELL_KNOWN_PUBLIC_FRAGMENTS.some((fragment) => value.includes(fragment));
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
  if (isIndirection(value) || isPlaceholder(value) || looksLikeName(value) || looksLikeLocation(value)) return false;
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
