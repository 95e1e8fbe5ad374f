/*
 * Fake credentials with the exact shape of real ones (for tests and the secrets benchmark), assembled at run time from split prefixes
 * and seeded random characters, so the repository itself never holds a literal a scanner flags.
 */

const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64 = `${ALPHANUMERIC}+/`;
const URL_SAFE = `${ALPHANUMERIC}_-`;
const DIGITS = '0123456789';
const HEX = '0123456789abcdef';

/** mulberry32: small, seeded, good enough to make values that look random to an entropy test. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomChars(alphabet: string, length: number, seed: number): string {
  const random = seededRandom(seed);
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[Math.floor(random() * alphabet.length)] ?? '';
  return out;
}

function pemBody(seed: number): string {
  const body = `MII${randomChars(BASE64, 317, seed)}`;
  return body.match(/.{1,64}/g)?.join('\n') ?? body;
}

function fakePrivateKeyPem(seed = 11): string {
  const kind = 'RSA PRIVATE' + ' KEY';
  return `-----BEGIN ${kind}-----\n${pemBody(seed)}\n-----END ${kind}-----`;
}

/** One fake credential of each vendor format the tests and the benchmark use. */
export function fakeSecrets(seed = 1) {
  return {
    awsAccessKeyId: 'AK' + 'IA' + randomChars(UPPER_DIGITS, 16, seed + 1),
    awsSecretAccessKey: randomChars(BASE64, 40, seed + 2),
    githubClassic: 'gh' + 'p_' + randomChars(ALPHANUMERIC, 36, seed + 3),
    githubFineGrained: 'github' + '_pat_' + randomChars(ALPHANUMERIC, 82, seed + 4),
    slackBotToken: 'xo' + 'xb-' + randomChars(DIGITS, 12, seed + 5) + '-' + randomChars(DIGITS, 13, seed + 6) + '-' + randomChars(ALPHANUMERIC, 24, seed + 7),
    slackWebhook:
      'https://hooks.' +
      'slack.com/services/T' +
      randomChars(UPPER_DIGITS, 10, seed + 8) +
      '/B' +
      randomChars(UPPER_DIGITS, 10, seed + 9) +
      '/' +
      randomChars(ALPHANUMERIC, 24, seed + 10),
    openaiProjectKey: 'sk-' + 'proj-' + randomChars(URL_SAFE, 74, seed + 11) + 'T3Blbk' + 'FJ' + randomChars(URL_SAFE, 74, seed + 12),
    anthropicKey: 'sk-' + 'ant-api03-' + randomChars(URL_SAFE, 93, seed + 13) + 'AA',
    npmToken: 'np' + 'm_' + randomChars(ALPHANUMERIC, 36, seed + 14),
    sendgridKey: 'SG' + '.' + randomChars(ALPHANUMERIC, 22, seed + 15) + '.' + randomChars(ALPHANUMERIC, 43, seed + 16),
    gitlabToken: 'gl' + 'pat-' + randomChars(ALPHANUMERIC, 20, seed + 17),
    huggingfaceToken: 'hf' + '_' + randomChars(LETTERS, 34, seed + 18),
    dockerToken: 'dckr' + '_pat_' + randomChars(ALPHANUMERIC, 27, seed + 19),
    // Not in the preset: found only when assigned to a credential name.
    stripeLiveKey: 'sk' + '_live_' + randomChars(ALPHANUMERIC, 24, seed + 20),
    googleApiKey: 'AI' + 'za' + randomChars(URL_SAFE, 35, seed + 21),
    twilioApiKey: 'SK' + randomChars(HEX, 32, seed + 22),
    openaiLegacyKey: 'sk-' + randomChars(ALPHANUMERIC, 48, seed + 23),
    privateKeyPem: fakePrivateKeyPem(seed + 24),
    password: 'Qw7' + randomChars(ALPHANUMERIC, 11, seed + 25) + '!',
  };
}

export function fakeServiceAccountJson(seed = 1): string {
  return JSON.stringify(
    {
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: randomChars(HEX, 40, seed),
      private_key: `${fakePrivateKeyPem(seed + 1)}\n`,
      client_email: 'robot@demo-project.iam.gserviceaccount.com',
      client_id: randomChars(DIGITS, 21, seed + 2),
    },
    null,
    2,
  );
}
