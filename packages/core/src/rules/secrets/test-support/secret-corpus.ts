/*
 * A labelled corpus for R1's recall and precision: realistic fake credentials in the places code
 * really holds them, and look-alikes that are not credentials (placeholders, hashes, UUIDs,
 * published test vectors, identifiers). Keys are assembled at run time from split prefixes and
 * seeded random characters, so the repository holds no literal a push-protection scanner flags.
 */
import { fakeSecrets, randomChars } from '../fake-keys.js';

export interface LabelledSample {
  readonly id: string;
  readonly path: string;
  readonly content: string;
  /** True when the content hardcodes a credential R1 must catch. */
  readonly secret: boolean;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${ALPHANUMERIC}+/`;
const URL_SAFE = `${ALPHANUMERIC}_-`;
const HEX = '0123456789abcdef';

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/** A JWT with a realistic header, payload and signature. */
function fakeJwt(seed: number): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ sub: `user-${seed}`, org: 'acme', scope: 'admin', exp: 1_900_000_000 + seed }));
  return `${header}.${payload}.${randomChars(URL_SAFE, 43, seed)}`;
}

/** A random key with a placeholder-sounding word inside it, as real keys have by chance. */
function withWord(word: string, seed: number, length = 40): string {
  const body = randomChars(ALPHANUMERIC, length - word.length, seed);
  const at = seed % (body.length - 4);
  return `${body.slice(0, at)}${word}${body.slice(at)}`;
}

function uuid(seed: number): string {
  const hex = randomChars(HEX, 32, seed);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function positives(): LabelledSample[] {
  const samples: LabelledSample[] = [];
  const add = (id: string, path: string, content: string) => samples.push({ id, path, content, secret: true });
  for (const seed of [1, 2, 3]) {
    const keys = fakeSecrets(seed * 100);
    const jwt = fakeJwt(seed);
    add(`jwt bearer header ${seed}`, 'src/lib/http.ts', `export const client = createClient({ headers: { Authorization: 'Bearer ${jwt}' } });\n`);
    add(`jwt assigned ${seed}`, 'src/config.ts', `const serviceToken = "${jwt}";\n`);
    add(`jwt in env ${seed}`, '.env', `SUPABASE_SERVICE_ROLE=${jwt}\n`);
    add(`jwt in a call ${seed}`, 'src/features/sync.ts', `await sync({ url, jwt: '${jwt}' });\n`);
    add(`sk-proj in a constructor ${seed}`, 'src/lib/ai.ts', `const openai = new OpenAI({ apiKey: "${keys.openaiProjectKey}" });\n`);
    add(`sk-proj bare argument ${seed}`, 'src/lib/ai.ts', `const openai = createOpenAI("${keys.openaiProjectKey}");\n`);
    add(`sk-proj in env ${seed}`, '.env', `OPENAI_API_KEY=${keys.openaiProjectKey}\n`);
    add(
      `aws secret assigned to key ${seed}`,
      'src/lib/s3.ts',
      `const s3 = new S3({ region: 'eu-west-1', credentials: { id: '${keys.awsAccessKeyId}', key: '${keys.awsSecretAccessKey}' } });\n`,
    );
    add(`aws secret alone assigned to key ${seed}`, 'src/lib/upload.ts', `const key = "${keys.awsSecretAccessKey}";\n`);
    add(
      `aws secretAccessKey ${seed}`,
      'src/lib/s3.ts',
      `export const credentials = { accessKeyId: process.env.AWS_ID, secretAccessKey: "${keys.awsSecretAccessKey}" };\n`,
    );
    add(
      `aws secret in ini ${seed}`,
      'deploy/credentials',
      `[default]\naws_access_key_id = ${keys.awsAccessKeyId}\naws_secret_access_key = ${keys.awsSecretAccessKey}\n`,
    );
    add(`pem private key ${seed}`, 'src/keys.ts', `export const signingKey = \`${keys.privateKeyPem}\`;\n`);
    add(`github token ${seed}`, 'scripts/release.mjs', `const octokit = new Octokit({ auth: "${keys.githubClassic}" });\n`);
    add(`github fine-grained ${seed}`, '.env', `GH_TOKEN=${keys.githubFineGrained}\n`);
    add(`slack bot token ${seed}`, 'src/notify.ts', `const slack = new WebClient('${keys.slackBotToken}');\n`);
    add(`slack webhook ${seed}`, 'src/notify.ts', `await post('${keys.slackWebhook}', body);\n`);
    add(`anthropic key ${seed}`, 'src/lib/ai.ts', `const anthropic = new Anthropic({ apiKey: '${keys.anthropicKey}' });\n`);
    add(`stripe live key ${seed}`, 'src/billing.ts', `const stripe = new Stripe('${keys.stripeLiveKey}');\n`);
    add(`google api key ${seed}`, 'src/maps.ts', `const maps = loadMaps({ key: '${keys.googleApiKey}' });\n`);
    add(`npm token ${seed}`, '.npmrc', `//registry.npmjs.org/:_authToken=${keys.npmToken}\n`);
    add(`sendgrid key ${seed}`, 'src/mail.ts', `sgMail.setApiKey('${keys.sendgridKey}');\n`);
    add(
      `database url password ${seed}`,
      'src/db.ts',
      `const pool = new Pool({ connectionString: 'postgres://app:${randomChars(ALPHANUMERIC, 16, seed + 7)}@db.internal:5432/app' });\n`,
    );
    add(`password assigned ${seed}`, 'src/db.ts', `const dbPassword = "${keys.password}";\n`);
    for (const word of ['test', 'here', 'your', 'fake', 'example', 'xxx']) {
      add(`api key containing "${word}" ${seed}`, 'src/lib/client.ts', `const apiKey = "${withWord(word, seed * 7 + word.length)}";\n`);
    }
    add(`generic token in yaml ${seed}`, 'deploy/values.yaml', `auth:\n  token: ${randomChars(URL_SAFE, 40, seed + 31)}\n`);
  }
  return samples;
}

function negatives(): LabelledSample[] {
  const samples: LabelledSample[] = [];
  const add = (id: string, path: string, content: string) => samples.push({ id, path, content, secret: false });
  const jwtIoPayload = 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ';
  const published = [
    [
      'jwt.io example token',
      'docs/auth.md',
      `Send \`Authorization: Bearer ${'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9'}.${jwtIoPayload}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\`.\n`,
    ],
    ['aws documentation key id', 'docs/aws.md', `aws_access_key_id = ${'AKIA' + 'IOSFODNN7' + 'EXAMPLE'}\n`],
    ['aws documentation secret', 'docs/aws.md', `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCY' + 'EXAMPLEKEY'}\n`],
  ] as const;
  for (const [id, path, content] of published) add(id, path, content);
  const placeholders = [
    ['angle bracket placeholder', '.env.example', 'OPENAI_API_KEY=<your-api-key>\n'],
    ['x run placeholder', 'src/config.ts', 'const apiKey = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";\n'],
    ['prefixed x run', 'src/config.ts', `const apiKey = "${'sk-' + 'proj-'}xxxxxxxxxxxxxxxxxxxxxxxx";\n`],
    ['ellipsis placeholder', 'README.md', `export OPENAI_API_KEY=${'sk-'}...\n`],
    ['asterisk mask', 'src/config.ts', 'const password = "************";\n'],
    ['your-key-here', 'src/config.ts', 'const apiKey = "your-api-key-here";\n'],
    ['replace me', 'deploy/values.yaml', 'auth:\n  token: REPLACE_WITH_YOUR_TOKEN\n'],
    ['changeme', 'docker-compose.yml', 'environment:\n  POSTGRES_PASSWORD: changeme\n'],
    ['env reference', 'src/config.ts', 'const apiKey = process.env.OPENAI_API_KEY ?? "";\n'],
    ['template reference', 'deploy/values.yaml', 'auth:\n  token: ${API_TOKEN}\n'],
    ['handlebars reference', 'deploy/values.yaml', 'secret: "{{ .Values.secret }}"\n'],
    ['empty string', 'src/config.ts', 'const token = "";\n'],
    ['dummy words', 'src/config.test.ts', 'const password = "not-a-real-password";\n'],
    ['zeros', 'src/config.ts', 'const apiKey = "00000000000000000000000000000000";\n'],
  ] as const;
  for (const [id, path, content] of placeholders) add(id, path, content);
  for (const seed of [1, 2, 3]) {
    add(`sha256 integrity ${seed}`, 'package-lock.json', `"integrity": "sha512-${randomChars(BASE64, 86, seed)}=="\n`);
    add(`git sha ${seed}`, 'src/version.ts', `export const commit = "${randomChars(HEX, 40, seed + 1)}";\n`);
    add(`hash named key ${seed}`, 'src/cache.ts', `const cacheKey = "${randomChars(HEX, 64, seed + 2)}";\n`);
    add(`uuid id ${seed}`, 'src/fixtures.ts', `export const order = { id: "${uuid(seed)}", key: "${uuid(seed + 9)}" };\n`);
    add(`uuid token name ${seed}`, 'src/fixtures.ts', `const requestToken = "${uuid(seed + 3)}";\n`);
    add(`react key ${seed}`, 'src/components/list.tsx', `items.map((item) => <Row key={\`row-\${item.id}\`} label="user-${seed}-settings" />)\n`);
    add(`i18n key ${seed}`, 'src/i18n.ts', `t({ key: 'settings.password.reset.title' });\n`);
    add(`test vector hex ${seed}`, 'src/crypto.test.ts', `const digest = "${randomChars(HEX, 64, seed + 4)}"; // SHA-256 test vector\n`);
    add(`css hash class ${seed}`, 'src/styles.ts', `const className = "css-${randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 8, seed)}";\n`);
    add(`base64 image ${seed}`, 'src/icons.ts', `const icon = "data:image/png;base64,${randomChars(BASE64, 120, seed + 5)}";\n`);
    add(`token count ${seed}`, 'src/usage.ts', `const tokenCount = ${seed * 1234}; const tokens = countTokens(text);\n`);
    add(`password field name ${seed}`, 'src/forms.ts', `const passwordField = "new-password"; const passwordMinLength = 12;\n`);
  }
  return samples;
}

export function labelledCorpus(): LabelledSample[] {
  return [...positives(), ...negatives()];
}
