import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

describe('holdfast rulebook', () => {
  it('renders the default rulebook as AGENTS.md', async () => {
    const io = memoryIo();
    expect(await main(['rulebook', 'render'], io)).toBe(0);
    expect(io.out()).toMatch(/^# AGENTS\.md\n/);
    expect(io.out()).toContain('## R6 ORDER');
  });

  it('renders a rulebook given with --rulebook, relative to the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'holdfast-rulebook-'));
    writeFileSync(
      join(dir, 'mine.yaml'),
      "version: 1\nrules:\n  - id: R1\n    name: SCOPE\n    prose: Stay in lib/.\n    check: { kind: scope, allow: ['lib/**'] }\n",
    );
    const io = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'render', '--rulebook', 'mine.yaml'], io)).toBe(0);
    expect(io.out()).toBe('# AGENTS.md\n\n## R1 SCOPE\n\nStay in lib/.\n');
  });

  it('refuses an unknown subverb with exit 2, listing the real ones', async () => {
    const io = memoryIo();
    expect(await main(['rulebook', 'publish'], io)).toBe(2);
    expect(io.err()).toContain('unknown subverb "publish". Subverbs: render');
  });

  it('refuses an invalid rulebook with exit 2 and the file in the message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'holdfast-rulebook-'));
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nrules:\n  - id: R1\n');
    const io = memoryIo({ cwd: dir });
    expect(await main(['rulebook', 'render', '--rulebook', 'bad.yaml'], io)).toBe(2);
    expect(io.err()).toMatch(/bad\.yaml: rule R1, field name/);
  });

  it('prints help with --help and usage on stderr with no subverb', async () => {
    const help = memoryIo();
    expect(await main(['rulebook', '--help'], help)).toBe(0);
    expect(help.out()).toContain('Usage: holdfast rulebook');
    const bare = memoryIo();
    expect(await main(['rulebook'], bare)).toBe(2);
    expect(bare.err()).toContain('Usage: holdfast rulebook');
  });
});
