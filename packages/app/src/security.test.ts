import { describe, expect, it } from 'vitest';
import { allowedHostHeaders, isLoopbackHost, tokensMatch } from './security.js';

describe('allowedHostHeaders', () => {
  it('answers only the loopback names on the bound port', () => {
    const allowed = allowedHostHeaders('127.0.0.1', 5177);
    expect([...allowed].sort()).toEqual(['127.0.0.1:5177', '[::1]:5177', 'localhost:5177']);
    expect(allowed.has('127.0.0.1:5178')).toBe(false);
    expect(allowed.has('evil.example:5177')).toBe(false);
  });

  it('adds the bound name when bound beyond loopback', () => {
    expect(allowedHostHeaders('192.168.1.20', 80).has('192.168.1.20:80')).toBe(true);
    expect(allowedHostHeaders('fd00::1', 80).has('[fd00::1]:80')).toBe(true);
  });

  it('adds the machine addresses for a wildcard bind', () => {
    expect(allowedHostHeaders('0.0.0.0', 9000).has('127.0.0.1:9000')).toBe(true);
  });
});

describe('isLoopbackHost', () => {
  it('tells loopback from the network', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.com'].some(isLoopbackHost)).toBe(false);
  });
});

describe('tokensMatch', () => {
  it('matches only the same token, whatever the lengths', () => {
    expect(tokensMatch('abc', 'abc')).toBe(true);
    expect(tokensMatch('abd', 'abc')).toBe(false);
    expect(tokensMatch('', 'abc')).toBe(false);
    expect(tokensMatch('abcabc', 'abc')).toBe(false);
  });
});
