import { describe, expect, it } from 'vitest';
import { detailNamesRule } from './format.js';

describe('detailNamesRule', () => {
  it('sees a detail that starts with its rule, so "R2:" is not printed before "R2 SCOPE: …"', () => {
    expect(detailNamesRule('R2', 'R2 SCOPE: write to "../x" leaves the repository')).toBe(true);
    expect(detailNamesRule('R2', 'R2: write outside')).toBe(true);
    expect(detailNamesRule('R2', 'R20 OTHER: …')).toBe(false);
    expect(detailNamesRule('R2', 'write outside')).toBe(false);
    expect(detailNamesRule('R2', undefined)).toBe(false);
  });
});
