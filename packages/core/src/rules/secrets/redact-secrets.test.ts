import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

// Built at run time so the repository never holds a literal that secret scanners flag.
const awsKeyId = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');
const stripeKey = ['sk_live_', '4eC39HqLyjWDarjtT1zdp7dc'].join('');
const password = ['Zt9', 'kLm2Qw8', 'vX4pRn7'].join('');

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
      expect(redacted).not.toContain(encoded);
      expect(redacted).toBe(`echo ${encoded.slice(0, 4)}… | base64 -d > .env`);
    }
    const harmless = Buffer.from('just some words, nothing secret here at all').toString('base64');
    expect(await redactSecrets(`echo ${harmless}`)).toBe(`echo ${harmless}`);
  });
});
