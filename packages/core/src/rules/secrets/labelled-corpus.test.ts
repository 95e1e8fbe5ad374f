import { describe, expect, it } from 'vitest';
import { scanSecrets } from './scan-secrets.js';
import type { SecretScanOptions } from './secret-finding.js';
import { labelledCorpus } from './test-support/secret-corpus.js';

const OPTIONS: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };

describe('R1 on a labelled corpus of realistic keys and look-alikes', () => {
  it('catches at least 95% of the keys and flags at most 5% of the look-alikes', async () => {
    const missed: string[] = [];
    const flagged: string[] = [];
    const corpus = labelledCorpus();
    for (const sample of corpus) {
      const found = (await scanSecrets(sample.content, sample.path, OPTIONS)).length > 0;
      if (sample.secret && !found) missed.push(sample.id);
      if (!sample.secret && found) flagged.push(sample.id);
    }
    const keys = corpus.filter((sample) => sample.secret).length;
    const lookAlikes = corpus.length - keys;
    expect(keys).toBeGreaterThanOrEqual(80);
    expect(lookAlikes).toBeGreaterThanOrEqual(40);
    expect({ recall: 1 - missed.length / keys >= 0.95, missed }).toEqual({ recall: true, missed: expect.any(Array) });
    expect({ falsePositives: flagged.length / lookAlikes <= 0.05, flagged }).toEqual({ falsePositives: true, flagged: expect.any(Array) });
  });

  it('judges placeholders by shape, not by words found inside random strings', async () => {
    for (const sample of labelledCorpus().filter((each) => each.id.startsWith('api key containing'))) {
      expect(await scanSecrets(sample.content, sample.path, OPTIONS), sample.id).toHaveLength(1);
    }
  });
});
