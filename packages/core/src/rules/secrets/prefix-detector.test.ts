import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVERY_PREFIXED_KEY, findPrefixedSecrets } from './prefix-detector.js';
import { scanSecrets } from './scan-secrets.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

const OPTIONS = { detectors: ['secretlint-recommend', 'generic-assignment'] as const, minEntropy: 3, allowlist: [] };

describe('prefixed vendor keys the preset does not know', () => {
  const secrets = fakeSecrets();

  it('finds a Stripe live key passed straight to a constructor, not assigned to a credential name', async () => {
    const findings = await scanSecrets(`const stripe = new Stripe("${secrets.stripeLiveKey}");\n`, 'src/pay.ts', OPTIONS);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ detector: 'Stripe live secret key', line: 1 });
    expect(findings[0]!.masked).not.toContain(secrets.stripeLiveKey.slice(8));
  });

  it('finds a Google API key in a URL', async () => {
    const findings = await scanSecrets(`const url = "https://maps.example/api?key=${secrets.googleApiKey}";\n`, 'src/map.ts', OPTIONS);
    expect(findings.map((finding) => finding.detector)).toEqual(['Google API key']);
  });

  it('leaves test-mode and look-alike prefixes alone', async () => {
    const text = 'const a = "sk_test_abc";\nconst b = "AIza-short";\nconst c = "task_live_view";\n';
    expect(await scanSecrets(text, 'src/x.ts', OPTIONS)).toEqual([]);
  });

  it('finds the same keys with and without the one-pass literal prefilter', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.constantFrom(...Object.values(secrets), 'sk', '_live_', 'k_live_', 'AIza', 'SK', 'SKf', 'sk-', 'eyJ', 'S', 'K', '-', ' ', '.'),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
        (content) => {
          expect(findPrefixedSecrets(content)).toEqual(findPrefixedSecrets(content, EVERY_PREFIXED_KEY));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
