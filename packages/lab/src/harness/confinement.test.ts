import { describe, expect, it } from 'vitest';
import { harnessBubblewrapArgs, installationOf } from './confinement.js';

describe('harness confinement', () => {
  it('keeps a whole node_modules installation readable (Codex’s launcher runs a sibling package’s binary)', () => {
    expect(installationOf('/opt/cache/codex@0.171.0/node_modules/@openai/codex/bin/codex.js')).toBe('/opt/cache/codex@0.171.0');
    expect(installationOf('/nonexistent/bin/agent')).toBe('/nonexistent/bin');
  });

  it('hides /tmp and the host HOME, mounts back what must be read, and lets only the arm be written', () => {
    const args = harnessBubblewrapArgs({ armDir: '/', workDir: '/', readable: ['/', '/usr/bin', '/nonexistent'] }, '/');
    expect(args).toContain('--share-net');
    expect(args.join(' ')).toContain('--tmpfs /tmp');
    // `/` is not a HOME to hide; /usr is the system, already read-only; a missing path is not mounted.
    expect(args.filter((arg) => arg === '--tmpfs')).toHaveLength(1);
    expect(args.join(' ')).toContain('--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --ro-bind / / --bind / / --chdir / --');
  });
});
