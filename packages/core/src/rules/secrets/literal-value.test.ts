import { describe, expect, it } from 'vitest';
import { shannonEntropy } from './entropy.js';
import { isPlaceholder, isPlausibleSecret, isPlausibleUrlPassword, looksLikeAwsSecret } from './literal-value.js';
import { maskSecret } from './mask.js';
import { createPositionLookup } from './source-position.js';

describe('literal values', () => {
  it('measures Shannon entropy in bits per character', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
    expect(shannonEntropy('abcdefgh')).toBe(3);
  });

  it('judges literals against the entropy threshold', () => {
    expect(isPlausibleSecret('k8Z2qP9mW4', 3)).toBe(true);
    expect(isPlausibleSecret('k8Z2qP9mW4', 4)).toBe(false);
    expect(isPlausibleSecret('abababababab', 1)).toBe(true);
    expect(isPlausibleSecret('abababababab', 1.5)).toBe(false);
  });

  it('judges URL passwords without entropy but not stand-ins', () => {
    expect(isPlausibleUrlPassword('hunter22', 'app')).toBe(true);
    expect(isPlausibleUrlPassword('app', 'app')).toBe(false);
    expect(isPlausibleUrlPassword('${DB_PASS}', 'app')).toBe(false);
    expect(isPlausibleUrlPassword('postgres', 'app')).toBe(false);
  });

  it('tells placeholders by shape, not by words inside random strings', () => {
    for (const stand of [
      'your-api-key-here',
      'REPLACE_WITH_YOUR_TOKEN',
      'changeme123',
      'xxxxxxxx',
      '********',
      'sk-...',
      'not-a-real-password',
      'example-secret-9f8e7d',
    ]) {
      expect(isPlaceholder(stand), stand).toBe(true);
    }
    for (const key of ['Q9vTtestR2mZk81PqLw0', 'hereAb3Kq9ZmT7vLx2Pw', 'k2YourQ8mZ1vT0pLx9Ws', 'Zq8fakeM2kT9vLp0Rw3x']) {
      expect(isPlaceholder(key), key).toBe(false);
    }
  });

  it('knows an AWS secret access key by its shape', () => {
    expect(looksLikeAwsSecret(`${'wJa1rXUtnFEMI'}K7MDENGbPxRfiCY9x2Lq0Zw8+/Q`)).toBe(true);
    expect(looksLikeAwsSecret('0123456789abcdef0123456789abcdef01234567')).toBe(false);
    expect(looksLikeAwsSecret('user-42')).toBe(false);
  });

  it('masks with at most four characters and never the whole value', () => {
    expect(maskSecret('AKIAABCDEFGHIJKLMNOP')).toBe('AKIA…');
    expect(maskSecret('abcdefgh')).toBe('ab…');
    expect(maskSecret('abc')).toBe('…');
  });

  it('maps offsets to 1-based lines and columns', () => {
    const positionOf = createPositionLookup('ab\ncd\n\nef');
    expect(positionOf(0)).toEqual({ line: 1, column: 1 });
    expect(positionOf(4)).toEqual({ line: 2, column: 2 });
    expect(positionOf(6)).toEqual({ line: 3, column: 1 });
    expect(positionOf(8)).toEqual({ line: 4, column: 2 });
  });
});
