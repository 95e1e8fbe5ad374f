import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXEC_GATE_DIR, EXEC_MARKER, confinementArgs } from './containment.js';

describe('confinementArgs', () => {
  it('shares only the network, hides before it mounts back, and mounts the gate read-only over the writable project', () => {
    const project = mkdtempSync(join(tmpdir(), 'holdfast-containment-'));
    const args = confinementArgs({
      network: 'shared',
      secretVariables: 'kept',
      masked: [],
      hidden: ['/tmp'],
      readable: ['/usr/bin', '/nonexistent-install'],
      writable: [project],
      readOnlyOver: [join(project)],
      mounted: [{ from: project, to: EXEC_GATE_DIR, access: 'read' }],
      env: { [EXEC_MARKER]: '1' },
      cwd: project,
      newSession: true,
    }).join(' ');
    expect(args).toMatch(/^--unshare-all --share-net --die-with-parent --new-session --cap-drop ALL --ro-bind \/ \/ --dev \/dev --proc \/proc --tmpfs \/tmp /);
    // A path that does not exist is not mounted (bubblewrap would fail on it).
    expect(args).not.toContain('nonexistent-install');
    expect(args.indexOf(`--bind ${project} ${project}`)).toBeLessThan(args.indexOf(`--ro-bind ${project} ${project}`));
    expect(args).toContain(`--ro-bind ${project} ${EXEC_GATE_DIR}`);
    expect(args).toMatch(new RegExp(`--setenv ${EXEC_MARKER} 1 --chdir ${project} --$`));
  });

  it('leaves the session alone for an interactive agent', () => {
    expect(
      confinementArgs({
        network: 'shared',
        secretVariables: 'kept',
        masked: [],
        hidden: [],
        readable: [],
        writable: [],
        readOnlyOver: [],
        cwd: '/',
        newSession: false,
      }),
    ).not.toContain('--new-session');
  });
});
