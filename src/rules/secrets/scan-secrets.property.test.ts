import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSecrets } from './index.js';
import { fakeSecrets } from './test-support/fake-secrets.js';
import { findVendorSecrets } from './vendor-detector.js';

const secrets = fakeSecrets(3);

/** Fragments that steer random text towards the interesting paths: names, operators, quotes, anchors. */
const fragment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'password',
    'apiKey',
    'TOKEN',
    'secret_key',
    'Authorization',
    'Bearer ',
    ' = ',
    ': ',
    '="',
    "'",
    '"',
    '`',
    '\n',
    '${',
    '://',
    'postgres://u:',
    '@host',
    'ENV ',
    'AWS_SECRET_ACCESS_KEY=',
    '-----BEGIN',
    'ghp_',
    'xoxb-',
    'SG.',
    'npm_',
    '\\',
    ...Object.values(secrets),
  ),
);
const content = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));
const filePath = fc.constantFrom('src/a.ts', 'config/app.yaml', '.env', 'Dockerfile', 'deploy/key.json', 'notes.md', 'package.json');

describe('scanSecrets properties', () => {
  it('never throws and reports positions inside the content', async () => {
    await fc.assert(
      fc.asyncProperty(content, filePath, fc.double({ min: 0.5, max: 6, noNaN: true }), async (text, path, minEntropy) => {
        const findings = await scanSecrets(text, path, { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy, allowlist: [] });
        const lines = text.split('\n');
        for (const finding of findings) {
          expect(finding.line).toBeGreaterThanOrEqual(1);
          expect(finding.line).toBeLessThanOrEqual(lines.length);
          expect(finding.column).toBeGreaterThanOrEqual(1);
          expect(finding.column).toBeLessThanOrEqual((lines[finding.line - 1]?.length ?? 0) + 1);
          expect(finding.masked.endsWith('…')).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the anchor prefilter never changes what secretlint finds', async () => {
    await fc.assert(
      fc.asyncProperty(content, filePath, async (text, path) => {
        const filtered = await findVendorSecrets(text, path, { prefilter: true });
        const unfiltered = await findVendorSecrets(text, path, { prefilter: false });
        expect(filtered).toEqual(unfiltered);
      }),
      { numRuns: 200 },
    );
  });
});
