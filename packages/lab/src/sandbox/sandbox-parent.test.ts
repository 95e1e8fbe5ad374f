import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultSandboxParent } from './manager.js';

describe('defaultSandboxParent', () => {
  it('is the temp folder on disk, not the memory-backed /dev/shm', () => {
    expect(defaultSandboxParent()).toBe(tmpdir());
    expect(defaultSandboxParent()).not.toBe('/dev/shm');
  });
});
