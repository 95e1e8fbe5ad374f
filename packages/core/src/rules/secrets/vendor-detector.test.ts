import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectVendorRules, VENDOR_ANCHORS } from './vendor-anchors.js';
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
    const secrets = Object.values(fakeSecrets(5));
    // Each secret alone too: a file with an access key id and no secret key name skips the AWS rule.
    const samples = [
      ...secrets.map((secret) => `const value = "${secret}";\nAWS_SECRET_ACCESS_KEY=${secret}\n`),
      ...secrets.map((secret) => `const value = "${secret}";\n`),
      fakeServiceAccountJson(5),
    ];
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

describe('vendor rule selection in one pass', () => {
  const ids = Object.keys(VENDOR_ANCHORS);
  const byEveryAnchor = (content: string, extension: string) => new Set(ids.filter((id) => VENDOR_ANCHORS[id]?.(content, extension) === true));
  /** Pieces of every needle, in several cases, cut short and glued to each other and to noise. */
  const piece = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom(
      'A3T',
      'AKIA',
      'ASIA',
      'secret_access_key',
      'SECRETACCESSKEY',
      'Secret_Access_key',
      'private_key_id',
      '\\u',
      '-----BEGIN',
      'npm_',
      '_authToken=',
      'x-oauth-basic@github',
      'https://user:pass@',
      'ftp://a:b@',
      'http://a-b:c_d@',
      'xoxb-',
      'xapp-',
      'hooks.slack.com',
      'HOOKS.Slack.COM',
      'SG.',
      'shppa_',
      'ghp_',
      'github_pat_',
      'glpat-',
      'glc_',
      'glsa_',
      'T3BlbkFJ',
      'sk-ant-api0',
      'gsk_',
      'hf_',
      'lin_api_',
      'ntn_',
      'ops_ey',
      'MongoDB',
      'MYSQL',
      'postgres',
      'PoStGrEs',
      'hvs.',
      'vcp_',
      'dapi',
      'dckr_pat_',
      'figd_',
      'https',
      'AKI',
      'gh',
      'sec',
      'é',
      '\u212a',
    ),
  );
  const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));

  it('selects exactly the rules that asking every anchor selects', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('.ts', '.json', ''), (content, extension) => {
        expect(selectVendorRules(content, extension)).toEqual(byEveryAnchor(content, extension));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a needle at the very start and at the very end of the content', () => {
    expect(selectVendorRules('hf_', '.ts')).toEqual(new Set(['@secretlint/secretlint-rule-huggingface']));
    expect(selectVendorRules('xx dapi', '.ts')).toEqual(new Set(['@secretlint/secretlint-rule-databricks']));
    expect(selectVendorRules('hf', '.ts')).toEqual(new Set());
  });
});

describe('secretlint in a long-lived process', () => {
  it('leaves no performance marks behind, however many files it scans', async () => {
    const sample = `const url = "postgres://app:${'x'.repeat(4)}Q9@db/app";\n`;
    await findVendorSecrets(sample, 'src/a.ts');
    const before = performance.getEntriesByType('mark').length;
    for (let file = 0; file < 50; file++) await findVendorSecrets(sample, `src/f${file}.ts`);
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });
});
