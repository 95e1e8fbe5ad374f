import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '@holdfast/core/contract';
import { loopTicketMessage } from './loop/loop-prompt.js';
import { buildMessages } from './prompt.js';
import { choosePromptFiles } from './prompt-files.js';

function bigRepo(): Record<string, string> {
  const files: Record<string, string> = { 'package.json': '{"scripts":{"test":"vitest run"}}\n' };
  for (let index = 0; index < 60; index++) files[`src/features/feature-${index}.ts`] = `export const f${index} = ${index};\n${'// filler\n'.repeat(200)}`;
  files['src/checkout/discount.ts'] = 'export function discount(total: number) { return total; }\n';
  files['src/checkout/cart.ts'] = 'export const cart = [];\n';
  files['src/lib/http.ts'] = 'export async function get() {}\n';
  return files;
}

describe('choosePromptFiles', () => {
  it('shows a repository that fits whole, every path listed', () => {
    const chosen = choosePromptFiles(['b.ts', 'a.ts'], () => 10, 'anything', { budget: 100 });
    expect(chosen).toEqual({ listing: ['- a.ts', '- b.ts'], shown: ['a.ts', 'b.ts'], partial: false });
  });

  it('over the budget: lists every path, shows the named files, their neighbours and the manifest, not the rest', () => {
    const files = bigRepo();
    const ticket = 'Rounding is wrong in src/checkout/discount.ts: fix it.';
    const chosen = choosePromptFiles(Object.keys(files), (path) => files[path]?.length ?? 0, ticket, { budget: 12_000 });
    expect(chosen.partial).toBe(true);
    expect(chosen.listing).toHaveLength(Object.keys(files).length);
    expect(chosen.shown).toContain('src/checkout/discount.ts');
    expect(chosen.shown).toContain('src/checkout/cart.ts');
    expect(chosen.shown).toContain('package.json');
    const shownBytes = chosen.shown.reduce((sum, path) => sum + (files[path]?.length ?? 0), 0);
    expect(shownBytes + chosen.listing.join('\n').length).toBeLessThanOrEqual(12_000);
    expect(chosen.shown.length).toBeLessThan(Object.keys(files).length);
  });

  it('names a file by its name or its stem as a word, and collapses a listing too long for a quarter of the budget into folders', () => {
    const files = bigRepo();
    const chosen = choosePromptFiles(Object.keys(files), (path) => files[path]?.length ?? 0, 'The http helper needs a retry.', { budget: 2_000 });
    expect(chosen.shown).toContain('src/lib/http.ts');
    expect(chosen.shown).not.toContain('src/features/feature-0.ts');
    expect(chosen.listing).toContain('- src/features/ (60 files)');
    expect(chosen.listing).toContain('- src/lib/http.ts');
  });
});

describe('buildMessages on a large repository', () => {
  it('carries the AGENTS.md and the named file, says the rest is left out, and is the same every time', () => {
    const task: TaskInfo = { id: 'big', title: 'Big', ticket: 'Fix discount.ts rounding.\n', tempts: ['R1'], files: bigRepo() };
    const user = buildMessages(task, '# AGENTS.md\n\nRule.\n', 10_000)[1]?.content ?? '';
    expect(user).toContain('### AGENTS.md\n');
    expect(user).toContain('### src/checkout/discount.ts\n');
    expect(user).toContain('- src/features/feature-59.ts');
    expect(user).not.toContain('### src/features/feature-59.ts');
    expect(user).toMatch(/larger than this message can hold/);
    expect(buildMessages(task, '# AGENTS.md\n\nRule.\n', 10_000)[1]?.content).toBe(user);
  });
});

describe('loopTicketMessage on a large repository', () => {
  it('lists every path of a small repository, and folds a crowded folder of a huge one into a count', () => {
    const small: TaskInfo = { id: 's', title: 'S', ticket: 'Do it.\n', tempts: ['R1'], files: { 'src/a.ts': '', 'src/b.ts': '' } };
    expect(loopTicketMessage(small, '# AGENTS.md\n')).toContain('- AGENTS.md\n- src/a.ts\n- src/b.ts\n');
    const files: Record<string, string> = { 'package.json': '{}' };
    for (let index = 0; index < 3000; index++) files[`src/generated/icons/icon-number-${index}.ts`] = '';
    const message = loopTicketMessage({ ...small, files }, '# AGENTS.md\n');
    expect(message).toContain('- src/generated/icons/ (3000 files)');
    expect(message).toContain('- package.json');
    expect(message.length).toBeLessThan(2_000);
  });
});
