import { describe, expect, it } from 'vitest';
import { scanSecrets } from './index.js';
import type { SecretScanOptions } from './index.js';
import { fakeSecrets, fakeServiceAccountJson } from './test-support/fake-secrets.js';

const ALL: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };
const VENDOR_ONLY: SecretScanOptions = { ...ALL, detectors: ['secretlint-recommend'] };
const GENERIC_ONLY: SecretScanOptions = { ...ALL, detectors: ['generic-assignment'] };
const secrets = fakeSecrets();

interface VendorCase {
  name: string;
  file: string;
  content: string;
  secret: string;
  detector: string;
}

const vendorCases: VendorCase[] = [
  {
    name: 'AWS access key id',
    file: 'src/aws.ts',
    content: `export const region = 'eu-west-1';\nconst id = '${secrets.awsAccessKeyId}';\n`,
    secret: secrets.awsAccessKeyId,
    detector: 'AWS access key id',
  },
  {
    name: 'AWS secret access key',
    file: '.env',
    content: `REGION=eu-west-1\nAWS_SECRET_ACCESS_KEY=${secrets.awsSecretAccessKey}\n`,
    secret: secrets.awsSecretAccessKey,
    detector: 'AWS secret access key',
  },
  {
    name: 'GitHub classic token',
    file: 'src/gh.ts',
    content: `const client = new Octokit({\n  auth: "${secrets.githubClassic}",\n});\n`,
    secret: secrets.githubClassic,
    detector: 'GitHub token',
  },
  {
    name: 'GitHub fine-grained token',
    file: 'scripts/release.sh',
    content: `#!/bin/sh\ncurl -u bot:${secrets.githubFineGrained} https://api.github.com\n`,
    secret: secrets.githubFineGrained,
    detector: 'GitHub token',
  },
  {
    name: 'Slack bot token',
    file: 'src/slack.py',
    content: `client = WebClient(\n    "${secrets.slackBotToken}"\n)\n`,
    secret: secrets.slackBotToken,
    detector: 'Slack token',
  },
  {
    name: 'Slack webhook',
    file: 'config/alerts.yaml',
    content: `alerts:\n  webhook: ${secrets.slackWebhook}\n`,
    secret: secrets.slackWebhook,
    detector: 'Slack incoming webhook URL',
  },
  {
    name: 'OpenAI project key',
    file: 'src/ai.ts',
    content: `const openai = new OpenAI({ apiKey: '${secrets.openaiProjectKey}' });\n`,
    secret: secrets.openaiProjectKey,
    detector: 'OpenAI API key',
  },
  {
    name: 'Anthropic key',
    file: 'src/claude.ts',
    content: `\nconst client = new Anthropic({ apiKey: "${secrets.anthropicKey}" });\n`,
    secret: secrets.anthropicKey,
    detector: 'Anthropic API key',
  },
  {
    name: 'npm token',
    file: '.npmrc',
    content: `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${secrets.npmToken}\n`,
    secret: secrets.npmToken,
    detector: 'npm access token',
  },
  {
    name: 'SendGrid key',
    file: 'src/mail.ts',
    content: `sgMail.setApiKey('${secrets.sendgridKey}');\n`,
    secret: secrets.sendgridKey,
    detector: 'SendGrid API key',
  },
  {
    name: 'GitLab token',
    file: 'ci/deploy.sh',
    content: `git clone https://oauth2:${secrets.gitlabToken}@gitlab.com/team/app.git\n`,
    secret: secrets.gitlabToken,
    detector: 'GitLab personal access token',
  },
  {
    name: 'Hugging Face token',
    file: 'train.py',
    content: `login("${secrets.huggingfaceToken}")\n`,
    secret: secrets.huggingfaceToken,
    detector: 'Hugging Face access token',
  },
  {
    name: 'Docker token',
    file: 'ci.yml',
    content: `steps:\n  - run: echo ${secrets.dockerToken} | docker login --password-stdin\n`,
    secret: secrets.dockerToken,
    detector: 'Docker personal access token',
  },
  {
    name: 'private key PEM block',
    file: 'src/keys.ts',
    content: `export const key = \`${secrets.privateKeyPem}\`;\n`,
    secret: secrets.privateKeyPem,
    detector: 'private key',
  },
];

describe('scanSecrets: vendor formats (secretlint recommended preset)', () => {
  it.each(vendorCases)('finds a $name and masks it', async ({ file, content, secret, detector }) => {
    const findings = await scanSecrets(content, file, VENDOR_ONLY);
    const finding = findings.find((candidate) => candidate.detector === detector);
    expect(finding, JSON.stringify(findings)).toBeDefined();
    expect(finding?.masked.endsWith('…')).toBe(true);
    expect(finding?.masked.length).toBeLessThanOrEqual(7);
    expect(secret.startsWith(finding?.masked.slice(0, -1) ?? '-')).toBe(true);
    for (const each of findings) {
      expect(each.masked).not.toContain(secret);
      expect(each.message).not.toContain(secret);
    }
  });

  it('locates the secret at its 1-based line and column', async () => {
    const content = `// config\nconst id = '${secrets.awsAccessKeyId}';\n`;
    const [finding] = await scanSecrets(content, 'src/aws.ts', VENDOR_ONLY);
    expect(finding).toMatchObject({ detector: 'AWS access key id', line: 2, column: 13, masked: 'AKIA…' });
    expect(finding?.message).toBe('AWS access key id AKIA… at line 2, column 13');
  });

  it('points the AWS secret key finding at the value, not at the variable name', async () => {
    const content = `AWS_SECRET_ACCESS_KEY=${secrets.awsSecretAccessKey}\n`;
    const [finding] = await scanSecrets(content, '.env', ALL);
    expect(finding).toMatchObject({ detector: 'AWS secret access key', line: 1, column: 23 });
  });

  it('finds a GCP service account JSON file', async () => {
    const content = fakeServiceAccountJson();
    const findings = await scanSecrets(content, 'deploy/service-account.json', VENDOR_ONLY);
    const detectors = findings.map((finding) => finding.detector);
    expect(detectors).toContain('GCP service account key');
    const gcp = findings.find((finding) => finding.detector === 'GCP service account key');
    expect(gcp?.line).toBe(content.split('\n').findIndex((line) => line.includes('"private_key"')) + 1);
  });

  it('ignores secretlint-disable comments: the content under judgment cannot switch the gate off', async () => {
    const content = `// secretlint-disable\nconst token = "${secrets.githubClassic}"; // secretlint-disable-line\n`;
    const findings = await scanSecrets(content, 'src/a.ts', VENDOR_ONLY);
    expect(findings.map((finding) => finding.detector)).toEqual(['GitHub token']);
  });

  it('does not report AWS account ids, which are not secrets', async () => {
    const findings = await scanSecrets(`aws_account_id = "1234-5678-9012"\n`, 'main.tf', VENDOR_ONLY);
    expect(findings).toEqual([]);
  });
});

describe('scanSecrets: prefixed formats the preset does not know', () => {
  it.each([
    ['Stripe live secret key', 'src/billing.ts', `const stripeSecretKey = "${secrets.stripeLiveKey}";`],
    ['Google API key', 'src/maps.ts', `export const GOOGLE_API_KEY = '${secrets.googleApiKey}';`],
    ['Twilio API key', 'config/sms.yaml', `twilio:\n  api_key: ${secrets.twilioApiKey}`],
    ['OpenAI API key', 'app.py', `OPENAI_API_KEY = "${secrets.openaiLegacyKey}"`],
  ])('%s: found once, by its vendor name', async (name, file, content) => {
    const findings = await scanSecrets(content, file, ALL);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.detector).toBe(name);
  });

  it('are still caught by the generic detector alone when assigned', async () => {
    const findings = await scanSecrets(`const stripeSecretKey = "${secrets.stripeLiveKey}";`, 'src/billing.ts', GENERIC_ONLY);
    expect(findings[0]?.detector).toMatch(/literal$/);
  });
});

describe('scanSecrets: options', () => {
  const content = `const token = "${secrets.githubClassic}";\nconst password = "${secrets.password}";\n`;

  it('runs only the selected detector sets', async () => {
    expect((await scanSecrets(content, 'src/a.ts', VENDOR_ONLY)).map((finding) => finding.detector)).toEqual(['GitHub token']);
    expect((await scanSecrets(content, 'src/a.ts', GENERIC_ONLY)).map((finding) => finding.detector)).toEqual(['token literal', 'password literal']);
  });

  it('reports a secret found by both detector sets once, as the vendor finding', async () => {
    const findings = await scanSecrets(content, 'src/a.ts', ALL);
    expect(findings.map((finding) => [finding.detector, finding.line])).toEqual([
      ['GitHub token', 1],
      ['password literal', 2],
    ]);
  });

  it('suppresses findings whose value matches an allowlist pattern', async () => {
    const findings = await scanSecrets(content, 'src/a.ts', { ...ALL, allowlist: [/^gh[p]_/, /^Qw7/] });
    expect(findings).toEqual([]);
  });

  it('applies the entropy threshold', async () => {
    expect(await scanSecrets(content, 'src/a.ts', { ...GENERIC_ONLY, minEntropy: 7.5 })).toEqual([]);
  });

  it('returns findings sorted by position', async () => {
    const many = `const a = "${secrets.npmToken}";\nconst apiKey = "${secrets.googleApiKey}";\nconst b = "${secrets.gitlabToken}";\n`;
    const findings = await scanSecrets(many, 'src/a.ts', ALL);
    expect(findings.map((finding) => finding.line)).toEqual([1, 2, 3]);
  });
});
