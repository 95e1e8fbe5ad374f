import { describe, expect, it } from 'vitest';
import { VENDOR_ANCHORS } from './vendor-anchors.js';
import { findVendorSecrets, vendorRuleIds } from './vendor-detector.js';
import { VENDOR_LABELS } from './vendor-labels.js';
import { fakeSecrets, fakeServiceAccountJson } from './test-support/fake-secrets.js';

describe('vendor detector', () => {
  it('has an anchor for every rule of the installed preset, and none for a rule it lacks', async () => {
    // A newer preset with a new rule fails here: its anchor must be read off its patterns first.
    expect(Object.keys(VENDOR_ANCHORS).sort()).toEqual((await vendorRuleIds()).sort());
  });

  it('has a readable label for every message the preset can report', async () => {
    const { rules } = await import('@secretlint/secretlint-rule-preset-recommend');
    const messageIds = rules.filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments').flatMap((rule) => Object.keys(rule.messages));
    expect(messageIds.filter((messageId) => VENDOR_LABELS[messageId] === undefined)).toEqual([]);
  });

  it('finds the same secrets with and without the prefilter on every sample', async () => {
    const samples = [...Object.values(fakeSecrets(5)).map((secret) => `const value = "${secret}";\nAWS_SECRET_ACCESS_KEY=${secret}\n`), fakeServiceAccountJson(5)];
    for (const sample of samples) {
      for (const path of ['src/a.ts', 'deploy/key.json', '.npmrc']) {
        expect(await findVendorSecrets(sample, path, { prefilter: true })).toEqual(await findVendorSecrets(sample, path, { prefilter: false }));
      }
    }
  });

  it('skips secretlint entirely for content no anchor selects', async () => {
    expect(Object.values(VENDOR_ANCHORS).some((anchor) => anchor('export const answer = 42;\n', '.ts'))).toBe(false);
  });
});
