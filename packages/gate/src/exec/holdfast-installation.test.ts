import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hookEntryPath } from './holdfast-installation.js';
import { holdfastInstallation } from './holdfast-installation.js';
import { inside } from './containment.js';

describe('holdfast’s installation', () => {
  it('in a clone is the workspace whose node_modules links the gate, and holds the hook entry', () => {
    const workspace = realpathSync(fileURLToPath(new URL('../../../..', import.meta.url)));
    expect(holdfastInstallation()).toBe(workspace);
    expect(inside(realpathSync(hookEntryPath()), holdfastInstallation())).toBe(true);
  });
});
