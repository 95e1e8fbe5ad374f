import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSecrets } from './index.js';
import { fakeSecrets } from './test-support/fake-secrets.js';
import { labelledCorpus } from './test-support/secret-corpus.js';
import { CREDENTIAL_KEYWORDS, findGenericSecrets } from './generic-detector.js';
import { EVERY_PREFIXED_KEY, findPrefixedSecrets, PREFIXED_KEY_LITERALS, prefixedKeysIn } from './prefix-detector.js';
import { OTHER_DETECTORS, selectDetectors } from './vendor-anchors.js';
import { extensionOf, findVendorSecrets } from './vendor-detector.js';

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
    'PASS',
    'CredS',
    'bEaReR',
    'SKa',
    'eyJ',
    '\u212a',
    '\u017f',
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

  /** What the one-pass selection skips must be what every detector, run without any prefilter, finds nothing in. */
  async function expectSelectionComplete(text: string, path: string): Promise<void> {
    const { rules, keywords, prefixedKeys } = selectDetectors(text, extensionOf(path));
    if (rules.size === 0) expect(await findVendorSecrets(text, path, { prefilter: false })).toEqual([]);
    const everyKey = findPrefixedSecrets(text, EVERY_PREFIXED_KEY);
    expect(findPrefixedSecrets(text, prefixedKeys)).toEqual(everyKey);
    expect([...keywords]).toEqual(keywordsByPattern(text));
    if (!rules.has(OTHER_DETECTORS)) {
      expect(everyKey).toEqual([]);
      for (const minEntropy of [0, 3]) expect(findGenericSecrets(text, path, minEntropy)).toEqual([]);
    }
  }

  /** Every credential keyword's start and end, by a case-insensitive pattern tried at every position. */
  function keywordsByPattern(text: string): number[] {
    const pattern = new RegExp(CREDENTIAL_KEYWORDS.join('|'), 'iy');
    const found: number[] = [];
    for (let start = 0; start < text.length; start++) {
      pattern.lastIndex = start;
      if (pattern.test(text)) found.push(start, pattern.lastIndex);
    }
    return found;
  }

  it("the one-pass selection knows every prefixed key's literal (its needles are written apart from prefix-detector.ts)", () => {
    for (const literal of PREFIXED_KEY_LITERALS) {
      const content = `x = ${literal}0123456789abcdef0123456789abcdef;`;
      const { rules, prefixedKeys } = selectDetectors(content, 'ts');
      expect(rules.has(OTHER_DETECTORS), literal).toBe(true);
      expect(prefixedKeys, literal).toBe(prefixedKeysIn(content));
      expect(prefixedKeys, literal).not.toBe(0);
    }
  });

  it('the one-pass selection skips no content where any detector finds something (random contents)', async () => {
    await fc.assert(
      fc.asyncProperty(content, filePath, async (text, path) => expectSelectionComplete(text, path)),
      { numRuns: 300 },
    );
  });

  it('the one-pass selection skips no content where any detector finds something (the R1 corpus, each sample also cut short)', async () => {
    for (const sample of labelledCorpus()) {
      for (const text of [sample.content, sample.content.slice(1), sample.content.slice(0, -1)]) await expectSelectionComplete(text, sample.path);
    }
  });
});
