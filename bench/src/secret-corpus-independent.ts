/*
 * An independent corpus for R1: built from the vendors' published key formats, not from the fake keys
 * that the detectors were tuned on (fake-keys.ts, secret-corpus.ts), and read only by the secrets
 * benchmark — no unit test imports it, so no detector is ever tuned to pass it. Private keys are made
 * with node:crypto when the corpus is built (OpenSSH, traditional DSA and OpenPGP armour are encoded
 * here from their published layouts); nothing in this file is a key until it runs. Positives include
 * keys respelled as code writes them (concatenated, joined, templated, base64); negatives are what
 * sits beside keys in real repositories: placeholders, documented example keys, hashes, UUIDs,
 * public keys, certificates and encoded ordinary text.
 */
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

export interface IndependentSample {
  readonly id: string;
  readonly path: string;
  readonly content: string;
  /** True when the content hardcodes a credential. */
  readonly secret: boolean;
  /** How the credential is written, for the per-form breakdown: `plain` or a respelling. */
  readonly form: 'plain' | 'concatenation' | 'join' | 'template' | 'base64' | 'hex' | 'pem' | 'negative';
}

/** xorshift32, seeded: this corpus's own generator, apart from the one the tuning corpus uses. */
function generator(seed: number): (alphabet: string, length: number) => string {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  return (alphabet, length) => {
    let out = '';
    for (let index = 0; index < length; index++) out += alphabet[Math.floor(next() * alphabet.length)] ?? '';
    return out;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const BASE64 = `${ALNUM}+/`;
const URL_SAFE = `${ALNUM}_-`;
const HEX = '0123456789abcdef';

/** Joined at run time so this file holds no prefix a push-protection scanner would flag. */
const p = (...parts: string[]) => parts.join('');

/** The vendor formats, as their documentation describes them. */
function publishedKeys(seed: number) {
  const chars = generator(seed);
  return {
    // AWS: 20 characters, upper case and digits, `AKIA` long-term or `ASIA` temporary; secret 40 base64.
    awsKeyId: p('AK', 'IA') + chars(`${UPPER}234567`, 16),
    awsTemporaryKeyId: p('AS', 'IA') + chars(`${UPPER}234567`, 16),
    awsSecret: chars(BASE64, 40),
    // GitHub: `ghp_` + 36 alphanumerics (classic PAT); `github_pat_` + 22 + `_` + 59 (fine-grained); `ghs_` app tokens.
    githubClassic: p('gh', 'p_') + chars(ALNUM, 36),
    githubFineGrained: p('github', '_pat_') + chars(ALNUM, 22) + '_' + chars(ALNUM, 59),
    githubApp: p('gh', 's_') + chars(ALNUM, 36),
    // Slack: bot `xoxb-` team-bot-secret, user `xoxp-` with a 32-hex secret.
    slackBot: p('xo', 'xb-') + chars(DIGITS, 12) + '-' + chars(DIGITS, 13) + '-' + chars(ALNUM, 24),
    slackUser: p('xo', 'xp-') + chars(DIGITS, 12) + '-' + chars(DIGITS, 12) + '-' + chars(DIGITS, 13) + '-' + chars(HEX, 32),
    // Stripe: `sk_live_` / `rk_live_` + 24 or 99 alphanumerics.
    stripeSecret: p('sk', '_live_') + chars(ALNUM, 24),
    stripeRestricted: p('rk', '_live_') + chars(ALNUM, 99),
    // Google API keys: `AIza` + 35 URL-safe characters.
    google: p('AI', 'za') + chars(URL_SAFE, 35),
    // OpenAI project keys: `sk-proj-`, URL-safe, `T3BlbkFJ` (base64 of "OpenAI") in the middle.
    openaiProject: p('sk-', 'proj-') + chars(URL_SAFE, 74) + p('T3Blbk', 'FJ') + chars(URL_SAFE, 74),
    // Anthropic: `sk-ant-api03-` + 93 URL-safe characters + `AA`.
    anthropic: p('sk-', 'ant-api03-') + chars(URL_SAFE, 93) + 'AA',
    jwt: `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: chars(HEX, 16) })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ iss: 'https://auth.acme.dev', sub: chars(DIGITS, 10), role: 'service', iat: 1_700_000_000 + seed }),
    ).toString('base64url')}.${chars(URL_SAFE, 342)}`,
    password: chars(ALNUM, 6) + '#' + chars(ALNUM, 9),
    chars,
  };
}

function pem(label: string, der: Buffer, headers = ''): string {
  const body =
    der
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? '';
  return `-----BEGIN ${label}-----\n${headers}${body}\n-----END ${label}-----\n`;
}

// ASN.1 DER, enough for a traditional DSA key.
function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const derNode = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
function derInteger(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return derNode(0x02, bytes);
}
/** The INTEGERs of a DER node's children, in order (enough to read a PKCS#8 DSA key). */
function readIntegers(der: Buffer): bigint[] {
  const found: bigint[] = [];
  const walk = (from: number, to: number) => {
    let at = from;
    while (at < to) {
      const tag = der[at] as number;
      let length = der[at + 1] as number;
      let header = 2;
      if (length & 0x80) {
        const count = length & 0x7f;
        length = 0;
        for (let index = 0; index < count; index++) length = length * 256 + (der[at + 2 + index] as number);
        header += count;
      }
      const bodyStart = at + header;
      if (tag === 0x02) found.push(BigInt(`0x${der.subarray(bodyStart, bodyStart + length).toString('hex') || '0'}`));
      else if (tag === 0x30 || tag === 0x04) walk(bodyStart, bodyStart + length);
      at = bodyStart + length;
    }
  };
  walk(0, der.length);
  return found;
}
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

/** `BEGIN DSA PRIVATE KEY`: OpenSSL's traditional SEQUENCE { 0, p, q, g, y, x }, from a node:crypto DSA key. */
function traditionalDsa(): string {
  const { privateKey } = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
  // PKCS#8: version 0, then p, q, g in the algorithm parameters, then x in the octet string.
  const [, prime, divisor, base, secret] = readIntegers(privateKey.export({ type: 'pkcs8', format: 'der' }));
  if (prime === undefined || divisor === undefined || base === undefined || secret === undefined) throw new Error('unexpected PKCS#8 DSA layout');
  const sequence = derNode(0x30, Buffer.concat([0n, prime, divisor, base, modPow(base, secret, prime), secret].map(derInteger)));
  return pem(p('DSA PRIV', 'ATE KEY'), sequence);
}

// OpenSSH's key format (PROTOCOL.key) for an unencrypted Ed25519 key.
const sshString = (value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const sshUint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes;
};
function openSshEd25519(): string {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d ?? '', 'base64url');
  const point = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(point)]);
  const check = randomBytes(4).readUInt32BE();
  let secretPart = Buffer.concat([sshUint32(check), sshUint32(check), publicBlob, sshString(Buffer.concat([seed, point])), sshString('deploy@ci')]);
  const padding: number[] = [];
  for (let index = 1; (secretPart.length + padding.length) % 8 !== 0; index++) padding.push(index);
  secretPart = Buffer.concat([secretPart, Buffer.from(padding)]);
  const blob = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    sshUint32(1),
    sshString(publicBlob),
    sshString(secretPart),
  ]);
  const body =
    blob
      .toString('base64')
      .match(/.{1,70}/g)
      ?.join('\n') ?? '';
  const label = p('OPENSSH PRIV', 'ATE KEY');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

// OpenPGP (RFC 4880): a v4 RSA secret key packet and a user id packet, ASCII-armoured with its CRC-24.
function mpi(value: Buffer): Buffer {
  let bytes = value;
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
  const bits = bytes.length * 8 - Math.clz32(bytes[0] ?? 0) + 24;
  return Buffer.concat([Buffer.from([bits >> 8, bits & 0xff]), bytes]);
}
function packet(tag: number, body: Buffer): Buffer {
  const length = body.length < 192 ? Buffer.from([body.length]) : Buffer.from([((body.length - 192) >> 8) + 192, (body.length - 192) & 0xff]);
  return Buffer.concat([Buffer.from([0xc0 | tag]), length, body]);
}
function crc24(bytes: Buffer): number {
  let crc = 0xb704ce;
  for (const byte of bytes) {
    crc ^= byte << 16;
    for (let bit = 0; bit < 8; bit++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}
function pgpSecretKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  const field = (name: 'n' | 'e' | 'd' | 'p' | 'q' | 'qi') => Buffer.from(jwk[name] ?? '', 'base64url');
  const secret = Buffer.concat([mpi(field('d')), mpi(field('p')), mpi(field('q')), mpi(field('qi'))]);
  let sum = 0;
  for (const byte of secret) sum = (sum + byte) & 0xffff;
  const body = Buffer.concat([
    Buffer.from([4, 0x65, 0x6a, 0x5b, 0x10, 1]),
    mpi(field('n')),
    mpi(field('e')),
    Buffer.from([0]),
    secret,
    Buffer.from([sum >> 8, sum & 0xff]),
  ]);
  const packets = Buffer.concat([packet(5, body), packet(13, Buffer.from('Release Bot <release@acme.dev>'))]);
  const crc = crc24(packets);
  const checksum = Buffer.from([crc >> 16, (crc >> 8) & 0xff, crc & 0xff]).toString('base64');
  const label = p('PGP PRIVATE', ' KEY BLOCK');
  return `-----BEGIN ${label}-----\n\n${
    packets
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? ''
  }\n=${checksum}\n-----END ${label}-----\n`;
}

function privateKeys(): Record<string, string> {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const ecP384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
  const ed25519 = generateKeyPairSync('ed25519').privateKey;
  const legacyEncrypted = createPrivateKey(rsa.export({ type: 'pkcs1', format: 'pem' }));
  return {
    'RSA (PKCS#1)': rsa.export({ type: 'pkcs1', format: 'pem' }) as string,
    'RSA (PKCS#8)': rsa.export({ type: 'pkcs8', format: 'pem' }) as string,
    'EC P-256 (SEC1)': ec.export({ type: 'sec1', format: 'pem' }) as string,
    'EC P-384 (SEC1)': ecP384.export({ type: 'sec1', format: 'pem' }) as string,
    'Ed25519 (PKCS#8)': ed25519.export({ type: 'pkcs8', format: 'pem' }) as string,
    'encrypted PKCS#8': ec.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'horse battery staple' }) as string,
    'encrypted PKCS#1 (Proc-Type header)': legacyEncrypted.export({
      type: 'pkcs1',
      format: 'pem',
      cipher: 'aes-128-cbc',
      passphrase: 'horse battery staple',
    }) as string,
    'DSA (traditional)': traditionalDsa(),
    'OpenSSH Ed25519': openSshEd25519(),
    'PGP private key block': pgpSecretKey(rsa),
  };
}

function certificateLookAlike(seed: number): string {
  // A certificate's shape: public, so never a secret. Its body is DER that starts like any certificate.
  const chars = generator(seed);
  const body = `MIIB${chars(BASE64, 600)}`;
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}

function positives(): IndependentSample[] {
  const samples: IndependentSample[] = [];
  const add = (id: string, path: string, content: string, form: IndependentSample['form'] = 'plain') => samples.push({ id, path, content, secret: true, form });
  for (const seed of [101, 202]) {
    const k = publishedKeys(seed);
    add(
      `aws key id in a client ${seed}`,
      'src/storage/s3.ts',
      `const s3 = new S3Client({ credentials: { accessKeyId: '${k.awsKeyId}', secretAccessKey: process.env.SECRET! } });\n`,
    );
    add(`aws temporary key id ${seed}`, 'scripts/assume.py', `session = boto3.Session(aws_access_key_id="${k.awsTemporaryKeyId}")\n`);
    add(`aws secret in credentials ${seed}`, '.aws/credentials', `[default]\naws_access_key_id = ${k.awsKeyId}\naws_secret_access_key = ${k.awsSecret}\n`);
    add(`github classic in a workflow ${seed}`, '.github/workflows/release.yml', `env:\n  GH_TOKEN: ${k.githubClassic}\n`);
    add(`github fine-grained in go ${seed}`, 'cmd/sync/main.go', `client := github.NewClient(nil).WithAuthToken("${k.githubFineGrained}")\n`);
    add(`github app token in shell ${seed}`, 'scripts/push.sh', `git push https://x-access-token:${k.githubApp}@github.com/acme/app.git\n`);
    add(`slack bot token ${seed}`, 'src/notify/slack.ts', `export const slack = new WebClient('${k.slackBot}');\n`);
    add(`slack user token ${seed}`, 'bot/settings.py', `SLACK_USER_TOKEN = "${k.slackUser}"\n`);
    add(`stripe secret key ${seed}`, 'src/billing/stripe.ts', `export const stripe = new Stripe('${k.stripeSecret}', { apiVersion: '2024-06-20' });\n`);
    add(`stripe restricted key ${seed}`, 'config/billing.json', `{ "stripe": { "restrictedKey": "${k.stripeRestricted}" } }\n`);
    add(`google api key ${seed}`, 'web/maps.js', `loader.load({ apiKey: "${k.google}", version: "weekly" });\n`);
    add(`openai project key ${seed}`, 'src/ai/client.ts', `const openai = new OpenAI({ apiKey: "${k.openaiProject}" });\n`);
    add(`anthropic key in env ${seed}`, '.env', `ANTHROPIC_API_KEY=${k.anthropic}\n`);
    add(`jwt in a header ${seed}`, 'src/api/admin.ts', `await fetchJson(url, { headers: { Authorization: \`Bearer ${k.jwt}\` } });\n`);
    add(`password in compose ${seed}`, 'docker-compose.yml', `services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ${k.password}\n`);

    const cut = (value: string, at: number): [string, string] => [value.slice(0, at), value.slice(at)];
    const [ghA, ghB] = cut(k.githubClassic, 4);
    const [awsA, awsB] = cut(k.awsKeyId, 4);
    const [stA, stB] = cut(k.stripeSecret, 8);
    const [anA, anB] = cut(k.anthropic, 14);
    add(`concatenated aws key id ${seed}`, 'src/storage/s3.ts', `const accessKeyId = '${awsA}' + '${awsB}';\n`, 'concatenation');
    add(
      `concatenated github token over lines ${seed}`,
      'scripts/release.mjs',
      `const auth =\n  "${ghA}" +\n  "${ghB.slice(0, 18)}" +\n  "${ghB.slice(18)}";\n`,
      'concatenation',
    );
    add(
      `concatenated stripe key through a const ${seed}`,
      'src/billing/stripe.ts',
      `const LIVE = '${stA}';\nexport const stripe = new Stripe(LIVE + '${stB}');\n`,
      'concatenation',
    );
    add(`joined anthropic key ${seed}`, 'src/ai/claude.ts', `const apiKey = ['${anA}', '${anB.slice(0, 40)}', '${anB.slice(40)}'].join('');\n`, 'join');
    add(
      `joined aws key id with separator ${seed}`,
      'src/storage/s3.js',
      `const id = ['${k.awsKeyId.slice(0, 10)}', '${k.awsKeyId.slice(11)}'].join('${k.awsKeyId[10] ?? ''}');\n`,
      'join',
    );
    add(`template github token ${seed}`, 'src/gh.ts', `const PREFIX = '${ghA}';\nconst token = \`\${PREFIX}${ghB}\`;\n`, 'template');
    add(`template of literal parts ${seed}`, 'src/maps.tsx', `const key = \`\${'${k.google.slice(0, 4)}'}\${'${k.google.slice(4)}'}\`;\n`, 'template');
    add(
      `base64 github token in a k8s secret ${seed}`,
      'deploy/secret.yaml',
      `apiVersion: v1\nkind: Secret\ndata:\n  token: ${Buffer.from(k.githubClassic).toString('base64')}\n`,
      'base64',
    );
    add(
      `base64 slack token in code ${seed}`,
      'src/notify/slack.ts',
      `const token = Buffer.from('${Buffer.from(k.slackBot).toString('base64')}', 'base64').toString();\n`,
      'base64',
    );
    add(
      `base64 docker config ${seed}`,
      'deploy/pull-secret.yaml',
      `data:\n  .dockerconfigjson: ${Buffer.from(JSON.stringify({ auths: { 'ghcr.io': { password: k.githubClassic } } })).toString('base64')}\n`,
      'base64',
    );
    // Respellings R1 does not fold (text only outside TS/JS; a value computed from character codes): its known limits.
    add(`concatenated in python ${seed}`, 'app/settings.py', `GITHUB_TOKEN = "${ghA}" + "${ghB}"\n`, 'concatenation');
    add(`concatenated in go ${seed}`, 'internal/billing/stripe.go', `var stripeKey = "${stA}" + "${stB}"\n`, 'concatenation');
    add(
      `from char codes ${seed}`,
      'src/storage/s3.ts',
      `const id = String.fromCharCode(${[...k.awsKeyId].map((character) => character.charCodeAt(0)).join(', ')});\n`,
      'concatenation',
    );
    add(`hex aws key id ${seed}`, 'src/storage/s3.ts', `const id = Buffer.from('${Buffer.from(k.awsKeyId).toString('hex')}', 'hex').toString();\n`, 'hex');
  }
  for (const [kind, key] of Object.entries(privateKeys())) {
    add(`${kind} in a .pem`, 'deploy/tls/key.pem', key, 'pem');
    add(`${kind} in a JS string`, 'src/auth/signing.ts', `export const signingKey = ${JSON.stringify(key)};\n`, 'pem');
  }
  return samples;
}

function negatives(): IndependentSample[] {
  const samples: IndependentSample[] = [];
  const add = (id: string, path: string, content: string) => samples.push({ id, path, content, secret: false, form: 'negative' });
  // Documented example values, published by the vendors themselves.
  add(
    'aws documentation key pair',
    'docs/aws.md',
    `aws_access_key_id = ${p('AKIA', 'IOSFODNN7EXAMPLE')}\naws_secret_access_key = ${p('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY')}\n`,
  );
  add('aws documentation key, concatenated', 'src/fixtures/aws.ts', `const id = '${p('AK', 'IA')}' + 'IOSFODNN7' + 'EXAMPLE';\n`);
  add(
    'jwt.io example',
    'docs/auth.md',
    `Authorization: Bearer ${p('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c')}\n`,
  );
  // Placeholders as people write them.
  for (const [id, path, content] of [
    ['angle placeholder', '.env.example', 'OPENAI_API_KEY=<your-openai-key>\nSTRIPE_SECRET_KEY=<stripe-secret>\n'],
    ['x placeholder with prefix', 'README.md', `export GITHUB_TOKEN=${p('gh', 'p_')}XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n`],
    ['stripe placeholder', 'src/billing/stripe.ts', `const stripe = new Stripe(process.env.STRIPE_KEY ?? '${p('sk', '_live_')}...');\n`],
    ['env reference', 'src/ai/client.ts', 'const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY });\n'],
    ['helm value', 'deploy/values.yaml', 'slack:\n  token: "{{ .Values.slack.token }}"\n'],
    ['shell variable', 'scripts/push.sh', 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user\n'],
    ['redacted', 'docs/incident.md', 'The leaked key was `sk-ant-…redacted…` and has been rotated.\n'],
    ['changeme password', 'docker-compose.yml', 'environment:\n  POSTGRES_PASSWORD: changeme\n'],
  ] as const) {
    add(id, path, content);
  }
  for (const seed of [303, 404]) {
    const chars = generator(seed);
    const hex = (length: number) => chars(HEX, length);
    add(`sha256 digest ${seed}`, 'src/release/checksums.ts', `export const SHA256 = '${createHash('sha256').update(String(seed)).digest('hex')}';\n`);
    add(`git commit ${seed}`, 'src/version.ts', `export const COMMIT = "${hex(40)}";\n`);
    add(`integrity ${seed}`, 'package-lock.json', `"integrity": "sha512-${createHash('sha512').update(String(seed)).digest('base64')}"\n`);
    add(`uuid ${seed}`, 'src/fixtures/orders.ts', `export const ORDER_ID = '${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}';\n`);
    add(`cache key hash ${seed}`, 'src/cache.ts', `const cacheKey = "${hex(64)}";\n`);
    add(
      `base64 of ordinary text ${seed}`,
      'src/i18n/banner.ts',
      `export const BANNER = '${Buffer.from(`Welcome back to Acme! Your order ${seed} ships today.`).toString('base64')}';\n`,
    );
    add(
      `hex of ordinary text ${seed}`,
      'src/i18n/banner.ts',
      `export const BANNER_HEX = '${Buffer.from(`Order ${seed} is ready for pickup at the front desk`).toString('hex')}';\n`,
    );
    add(`base64 image ${seed}`, 'src/icons.ts', `const icon = "data:image/png;base64,${randomBytes(96).toString('base64')}";\n`);
    add(
      `concatenated words ${seed}`,
      'src/ui/labels.ts',
      `const title = 'Reset ' + 'your ' + 'password';\nconst hint = ['Use', 'at least', '12', 'characters'].join(' ');\n`,
    );
    add(`concatenated url ${seed}`, 'src/api/base.ts', `const API = 'https://' + 'api.acme.dev' + '/v' + 2;\nconst tokenUrl = \`\${API}/oauth/token\`;\n`);
    add(
      `public key ${seed}`,
      'deploy/tls/key.pub',
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }) as string,
    );
    add(`ssh public key ${seed}`, 'deploy/authorized_keys', `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(BASE64, 43)} deploy@ci\n`);
    add(`certificate ${seed}`, 'deploy/tls/cert.pem', certificateLookAlike(seed));
    add(
      `placeholder private key ${seed}`,
      'docs/tls.md',
      `-----BEGIN ${p('EC PRIV', 'ATE KEY')}-----\nMHcCAQEE...your key here...\n-----END ${p('EC PRIV', 'ATE KEY')}-----\n`,
    );
  }
  return samples;
}

let built: readonly IndependentSample[] | undefined;

/** The corpus, built once per process (key generation takes a moment). */
export function independentCorpus(): readonly IndependentSample[] {
  built ??= [...positives(), ...negatives()];
  return built;
}
