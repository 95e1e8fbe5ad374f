/** What a credential-looking name holds; it becomes the detector's words ("password literal"). */
export type CredentialKind = 'password' | 'API key' | 'private key' | 'access key' | 'token' | 'secret' | 'credential' | 'authorization header';

const WHOLE_WORD_KINDS: ReadonlyMap<string, CredentialKind> = new Map([
  ['password', 'password'],
  ['passwd', 'password'],
  ['passphrase', 'password'],
  ['pwd', 'password'],
  ['pass', 'password'],
  ['secret', 'secret'],
  ['secrets', 'secret'],
  ['clientsecret', 'secret'],
  ['token', 'token'],
  ['accesstoken', 'token'],
  ['authtoken', 'token'],
  ['apitoken', 'token'],
  ['refreshtoken', 'token'],
  ['bearer', 'token'],
  ['apikey', 'API key'],
  ['authkey', 'API key'],
  ['secretkey', 'secret'],
  ['privatekey', 'private key'],
  ['accesskey', 'access key'],
  ['sessionkey', 'secret'],
  ['credential', 'credential'],
  ['credentials', 'credential'],
  ['creds', 'credential'],
  ['auth', 'credential'],
  ['authorization', 'authorization header'],
]);

/** `key` alone is everywhere (React keys, map keys); it names a credential only after one of these. */
const KEY_QUALIFIERS: ReadonlyMap<string, CredentialKind> = new Map([
  ['api', 'API key'],
  ['access', 'access key'],
  ['private', 'private key'],
  ['secret', 'secret'],
  ['signing', 'secret'],
  ['encryption', 'secret'],
  ['master', 'secret'],
  ['session', 'secret'],
  ['shared', 'secret'],
  ['auth', 'API key'],
  ['app', 'API key'],
  ['service', 'API key'],
  ['account', 'API key'],
  ['client', 'API key'],
  ['consumer', 'API key'],
  ['webhook', 'secret'],
  ['license', 'API key'],
  ['subscription', 'API key'],
  ['admin', 'API key'],
]);

/**
 * A name whose last word describes a credential rather than holding one: `passwordLength`,
 * `tokenUrl`, `secretName`, `apiKeyHeader`, `passwordHash`.
 */
const DESCRIPTOR_WORDS = new Set([
  'name',
  'names',
  'type',
  'types',
  'kind',
  'length',
  'len',
  'size',
  'count',
  'id',
  'ids',
  'url',
  'uri',
  'urls',
  'endpoint',
  'path',
  'file',
  'filename',
  'dir',
  'env',
  'var',
  'variable',
  'header',
  'field',
  'fields',
  'prefix',
  'suffix',
  'regex',
  'regexp',
  'pattern',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'timeout',
  'label',
  'hint',
  'placeholder',
  'policy',
  'min',
  'max',
  'format',
  'hash',
  'hashed',
  'digest',
  'enabled',
  'required',
  'rules',
  'strength',
  'reset',
  'changed',
  'at',
  'param',
  'parameter',
  'input',
  'error',
  'errors',
  'message',
  'text',
  'title',
  'description',
  'help',
  'visible',
  'valid',
  'mode',
  'location',
  'store',
  'storage',
  'source',
  'provider',
  'version',
  'schema',
  'validator',
  'index',
  'ref',
  'template',
  'lifetime',
  'usage',
  'scope',
  'scopes',
  'method',
  'algorithm',
  'alg',
  'encoding',
  'style',
  'class',
  'icon',
  'color',
  'limit',
  'service',
  'manager',
]);

/** Splits `DB_PASSWORD`, `apiKey`, `x-api-key`, `APIKey`, `config.db.password` into lower-case words. */
export function splitNameWords(name: string): string[] {
  const words: string[] = [];
  for (const part of name.split(/[^A-Za-z0-9]+/)) {
    for (const word of part.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []) words.push(word.toLowerCase());
  }
  return words;
}

/** The kind of credential a variable, key or header name holds, or undefined when it holds none. */
export function classifyCredentialName(name: string): CredentialKind | undefined {
  const words = splitNameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  if (last === 'key') {
    const qualifier = words[words.length - 2];
    return qualifier === undefined ? undefined : KEY_QUALIFIERS.get(qualifier);
  }
  if (DESCRIPTOR_WORDS.has(last)) return undefined;
  const direct = WHOLE_WORD_KINDS.get(last);
  if (direct !== undefined) return direct;
  // `passwordProd`, `DB_PASSWORD_PRIMARY`: the credential word need not be last, as long as no
  // descriptor follows it (ruled out above) and it is not only a prefix of a compound like `tokenizer`.
  for (let index = words.length - 2; index >= 0; index--) {
    const word = words[index] ?? '';
    if (word === 'key') {
      const kind = KEY_QUALIFIERS.get(words[index - 1] ?? '');
      if (kind !== undefined) return kind;
    }
    const kind = WHOLE_WORD_KINDS.get(word);
    if (kind !== undefined && word !== 'pass' && word !== 'auth') return kind;
  }
  return undefined;
}
