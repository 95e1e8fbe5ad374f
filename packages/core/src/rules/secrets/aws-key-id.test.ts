import { lintSource } from '@secretlint/core';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AWS_RULE, findAwsAccessKeyIds } from './aws-key-id.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

const awsRule = rules.find((rule) => rule.meta.id === AWS_RULE);

/** What the preset's AWS rule itself reports as access key ids, with its key id scan switched on. */
async function byTheRule(content: string): Promise<{ start: number; value: string }[]> {
  if (awsRule === undefined) throw new Error(`the preset has no ${AWS_RULE}`);
  const result = await lintSource({
    source: { filePath: 'a.ts', content, ext: '.ts', contentType: 'text' },
    options: { config: { rules: [{ id: AWS_RULE, rule: awsRule, options: { enableIDScanRule: true } }] }, noPhysicFilePath: true, locale: 'en' },
  });
  return result.messages
    .filter((message) => message.messageId === 'AWSAccessKeyID')
    .map((message) => ({ start: message.range[0], value: content.slice(message.range[0], message.range[1]) }));
}

describe('AWS access key ids', () => {
  const keyId = fakeSecrets(7).awsAccessKeyId;
  const piece = fc.oneof(
    fc.string({ maxLength: 5 }),
    fc.constantFrom(
      keyId,
      keyId.slice(0, 19),
      `${keyId}X`,
      ['AKIA', 'IOSFODNN7EXAMPLE'].join(''),
      'A3TX',
      'ASIA',
      '0123456789ABCDEF',
      '_',
      ' ',
      '"',
      'é',
      'account_id = 1234-5678-9012',
    ),
  );
  const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

  it('finds exactly what the preset rule finds as access key ids', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (content) => {
        expect(findAwsAccessKeyIds(content).map(({ start, value }) => ({ start, value }))).toEqual(await byTheRule(content));
      }),
      { numRuns: 300 },
    );
  });

  it('names the finding as the vendor detector always has', () => {
    expect(findAwsAccessKeyIds(`const id = "${keyId}";`)).toEqual([{ detector: 'AWS access key id', start: 12, end: 32, value: keyId }]);
  });
});
