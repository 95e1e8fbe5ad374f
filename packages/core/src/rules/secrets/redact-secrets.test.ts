import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

// Built at run time so the repository never holds a literal that secret scanners flag.
const awsKeyId = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');
const stripeKey = ['sk_live_', '4eC39HqLyjWDarjtT1zdp7dc'].join('');
const password = ['Zt9', 'kLm2Qw8', 'vX4pRn7'].join('');
const githubToken = fakeSecrets(5).githubClassic;

describe('redactSecrets', () => {
  it.each([
    ['an env prefix', `AWS_ACCESS_KEY_ID=${awsKeyId} aws s3 ls`, awsKeyId, 'AKIA…'],
    ['a vendor key anywhere', `echo ${stripeKey} > key.txt`, stripeKey, 'sk_l…'],
    ['a bearer header', `curl -H "Authorization: Bearer ${password}" https://example.test`, password, 'Zt9k…'],
    ['an export', `export DB_PASSWORD='${password}' && npm test`, password, 'Zt9k…'],
    ['a URL password', `psql postgres://app:${password}@db.example.test/app`, password, undefined],
  ])('masks %s', async (_, text, secret, mask) => {
    const redacted = await redactSecrets(text);
    expect(redacted).not.toContain(secret);
    if (mask !== undefined) expect(redacted).toContain(mask);
  });

  it('leaves text without credentials as it is', async () => {
    for (const text of ['npm test', 'git commit -m "add refunds"', 'write src/a.ts (12 chars)', '']) expect(await redactSecrets(text)).toBe(text);
  });

  it('masks every secret of a text, keeping what lies between them', async () => {
    const redacted = await redactSecrets(`A=${stripeKey} then B=${awsKeyId} end`);
    expect(redacted).toMatch(/^A=sk_l… then B=AKIA… end$/);
  });

  it('masks a key the model wrote base64-encoded, plain or url-safe, and leaves other base64 alone', async () => {
    for (const encoding of ['base64', 'base64url'] as const) {
      const encoded = Buffer.from(`STRIPE_KEY=${stripeKey}`).toString(encoding);
      const redacted = await redactSecrets(`echo ${encoded} | base64 -d > .env`);
      expect(redacted).not.toContain(encoded.slice(8));
      expect(redacted).toMatch(/^echo \S*… \| base64 -d > \.env$/);
    }
    const harmless = Buffer.from('just some words, nothing secret here at all').toString('base64');
    expect(await redactSecrets(`echo ${harmless}`)).toBe(`echo ${harmless}`);
  });

  it.each([
    ['a base64-encoded key in a command', `kubectl create secret generic gh --from-literal=blob=${Buffer.from(githubToken).toString('base64')}`, 'ghp_…'],
    ['a hex-encoded key', `echo ${Buffer.from(awsKeyId).toString('hex')} | xxd -r -p`, 'AKIA…'],
    [
      'a key concatenated in a quoted script',
      `node -e "const k = '${githubToken.slice(0, 6)}' + '${githubToken.slice(6, 20)}' + '${githubToken.slice(20)}'; run(k)"`,
      'ghp_…',
    ],
    ['a key joined from a Python list', `python -c "print(''.join(['${awsKeyId.slice(0, 4)}', '${awsKeyId.slice(4)}']))"`, 'AKIA…'],
    ['a key concatenated in code', `const k =\n  '${githubToken.slice(0, 4)}' +\n  '${githubToken.slice(4)}';`, 'ghp_…'],
  ])('masks %s, encoded form and every part', async (_, text, mask) => {
    const redacted = await redactSecrets(text);
    const parts = [
      githubToken.slice(4),
      githubToken.slice(6, 20),
      githubToken.slice(20),
      awsKeyId.slice(4),
      Buffer.from(githubToken).toString('base64').slice(8),
    ];
    for (const part of parts) expect(redacted).not.toContain(part);
    expect(redacted).not.toContain(Buffer.from(awsKeyId).toString('hex').slice(8));
    expect(redacted).toContain(mask);
  });

  it('leaves quoted words joined by + as they are', async () => {
    const text = `node -e "console.error('build ' + 'finished in ' + 'production')"`;
    expect(await redactSecrets(text)).toBe(text);
  });
});
