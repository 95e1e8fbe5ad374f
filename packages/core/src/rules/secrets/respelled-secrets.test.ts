import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scanSecrets } from './index.js';
import type { SecretScanOptions } from './index.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

const ALL: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };
const keys = fakeSecrets(77);
const github = keys.githubClassic;
const aws = keys.awsAccessKeyId;
const split = (value: string, at: number) => [value.slice(0, at), value.slice(at)] as const;
const [ghHead, ghTail] = split(github, 4);
const [awsHead, awsTail] = split(aws, 4);
const base64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const pem = (type: 'rsa' | 'ec' | 'ed25519', format: 'pkcs1' | 'sec1' | 'pkcs8', encrypted = false): string =>
  generateKeyPairSync(
    type as 'rsa',
    {
      modulusLength: 1024,
      namedCurve: 'P-256',
      privateKeyEncoding: { type: format, format: 'pem', ...(encrypted ? { cipher: 'aes-256-cbc', passphrase: 'correct horse' } : {}) },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    } as never,
  ).privateKey as unknown as string;

interface Caught {
  readonly name: string;
  readonly path: string;
  readonly content: string;
  /** The finding's detector holds this. */
  readonly detector: string;
  readonly line: number;
}

const caught: Caught[] = [
  {
    name: 'concatenated literals',
    path: 'src/a.ts',
    content: `// aws\nconst id = '${awsHead}' + '${awsTail}';\n`,
    detector: 'AWS access key id (assembled by string concatenation)',
    line: 2,
  },
  {
    name: 'concatenation over lines',
    path: 'src/a.js',
    content: `export const token =\n  '${ghHead}' +\n  '${ghTail.slice(0, 10)}' +\n  '${ghTail.slice(10)}';\n`,
    detector: 'GitHub token (assembled by string concatenation)',
    line: 2,
  },
  {
    name: 'join of a literal array',
    path: 'src/a.ts',
    content: `const id = ['${awsHead}', '${awsTail}'].join('');\n`,
    detector: 'AWS access key id (joined from a literal array)',
    line: 1,
  },
  {
    name: 'join with a literal separator',
    path: 'src/a.mjs',
    content: `const parts = ['${github.slice(0, 4)}', '${github.slice(4)}'];\nconst token = parts.join('');\nconst other = ['${ghHead.slice(0, 3)}', '${github.slice(4)}'].join('${ghHead.slice(3)}');\n`,
    detector: 'GitHub token (joined from a literal array)',
    line: 2,
  },
  {
    name: 'template of literal parts',
    path: 'src/a.tsx',
    content: `const id = \`\${'${awsHead}'}${awsTail}\`;\n`,
    detector: 'AWS access key id (assembled in a template literal)',
    line: 1,
  },
  {
    name: 'a const named in the same file',
    path: 'src/a.ts',
    content: `const prefix = '${ghHead}';\nconst rest = \`\${prefix}${ghTail.slice(0, 6)}\`;\nexport const token = rest + '${ghTail.slice(6)}';\n`,
    detector: 'GitHub token (assembled by string concatenation)',
    line: 3,
  },
  {
    name: 'a const declared after others in one list, exported',
    path: 'src/a.ts',
    content: `export const first = 1,\n  /* the head */ prefix: string = '${ghHead}';\nexport const token = prefix + '${ghTail}';\n`,
    detector: 'GitHub token (assembled by string concatenation)',
    line: 3,
  },
  {
    name: 'escape sequences',
    path: 'src/a.ts',
    content: `const id = "\\x${aws.charCodeAt(0).toString(16)}${aws.slice(1)}";\n`,
    detector: 'AWS access key id (written with escape sequences)',
    line: 1,
  },
  {
    name: 'a base64 literal',
    path: 'src/a.ts',
    content: `const token = Buffer.from('${base64(github)}', 'base64').toString();\n`,
    detector: 'base64-encoded GitHub token',
    line: 1,
  },
  {
    name: 'a base64 Kubernetes secret',
    path: 'deploy/secret.yaml',
    content: `kind: Secret\ndata:\n  password: ${base64(`password=${keys.password}`)}\n`,
    detector: 'base64-encoded password literal',
    line: 3,
  },
  {
    name: 'a hex literal',
    path: 'config/app.ini',
    content: `[s3]\nblob = ${hex(`aws_access_key_id = ${aws}`)}\n`,
    detector: 'hex-encoded AWS access key id',
    line: 2,
  },
  {
    name: 'base64 inside a concatenation',
    path: 'src/a.ts',
    content: `const blob = '${base64(github).slice(0, 20)}' + '${base64(github).slice(20)}';\n`,
    detector: 'base64-encoded GitHub token (assembled by string concatenation)',
    line: 1,
  },
];

const pemCases: [string, () => string, string][] = [
  ['RSA (PKCS#1)', () => pem('rsa', 'pkcs1'), 'private key'],
  ['EC (SEC1)', () => pem('ec', 'sec1'), 'EC private key'],
  ['PKCS#8 Ed25519', () => pem('ed25519', 'pkcs8'), 'PKCS#8 private key'],
  ['encrypted PKCS#8', () => pem('ec', 'pkcs8', true), 'encrypted PKCS#8 private key'],
];

describe('R1 reads secrets as they are really written', () => {
  it.each(caught)('catches $name', async ({ path, content, detector, line }) => {
    const findings = await scanSecrets(content, path, ALL);
    expect(findings.map((finding) => [finding.detector, finding.line])).toContainEqual([detector, line]);
  });

  it('reports a folded key once, where its expression starts', async () => {
    const findings = await scanSecrets(`const a = 1;\nconst id =\n  ['${awsHead}',\n   '${awsTail}'].join('');\n`, 'src/a.ts', ALL);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 3, column: 3, masked: 'AKIA…' });
  });

  it.each(pemCases)('catches a %s private key block, in a file and in a JS string', async (_, make, detector) => {
    const block = make().trim();
    expect((await scanSecrets(`${block}\n`, 'keys/signing.pem', ALL)).map((finding) => finding.detector)).toEqual([detector]);
    const inString = `export const key = ${JSON.stringify(`${block}\n`)};\n`;
    expect(await scanSecrets(inString, 'src/key.ts', ALL)).toHaveLength(1);
  });
});

const ordinary = 'This sentence is ordinary documentation text, nothing more.';
const notCaught: [string, string, string][] = [
  ['a base64 of ordinary text', 'src/a.ts', `const banner = '${base64(ordinary)}';\n`],
  ['a hex of ordinary text', 'src/a.ts', `const banner = '${hex(ordinary)}';\n`],
  ['a hex hash', 'src/a.ts', `const digest = '${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}';\n`],
  ['a concatenation of non-secret words', 'src/a.ts', `const greeting = 'hello' + ', ' + 'world' + ['and', 'welcome'].join(' ') + \`\${'back'}\`;\n`],
  ['a concatenation naming a password field', 'src/a.ts', `const label = 'pass' + 'word';\nconst password = 'new-' + 'password';\n`],
  ['a concatenation with a run-time value', 'src/a.ts', `const token = 'ghp_' + process.env.SUFFIX;\n`],
  ['a shadowed const', 'src/a.ts', `const p = '${ghHead}';\nfunction f(p: string) { return p + 'x'; }\n`],
  ['a let, which may change before it is read', 'src/a.ts', `let p = '${ghHead}';\nexport const token = p + '${ghTail}';\n`],
  ['a var', 'src/a.ts', `var p = '${ghHead}';\nexport const token = p + '${ghTail}';\n`],
  ['a const whose name a let binds again', 'src/a.ts', `const p = '${ghHead}';\n{ let p = 'x'; }\nexport const token = p + '${ghTail}';\n`],
  ['a name bound by a const and a let in one file', 'src/a.ts', `{ let p = 'x'; }\nconst p = '${ghHead}';\nexport const token = p + '${ghTail}';\n`],
  [
    'a public key',
    'keys/signing.pub',
    generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
      .publicKey,
  ],
  ['a placeholder private key', 'docs/keys.md', `-----BEGIN ${'EC PRIVATE'} KEY-----\nMHcCAQEE...\n-----END ${'EC PRIVATE'} KEY-----\n`],
  ['the AWS documentation key, concatenated', 'src/a.ts', `const id = 'AKIA' + 'IOSFODNN7' + 'EXAMPLE';\n`],
];

describe('R1 leaves look-alikes alone', () => {
  it.each(notCaught)('%s', async (_, path, content) => {
    expect(await scanSecrets(content, path, ALL)).toEqual([]);
  });
});
