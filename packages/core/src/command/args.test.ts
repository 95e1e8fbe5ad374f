import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './args.js';

const OPTIONS = { rulebook: { type: 'string' }, observe: { type: 'boolean' } } as const;

describe('parseCommandArgs', () => {
  it('answers positionals alone as node parseArgs does, without calling it', () => {
    for (const args of [[], ['claude-code'], ['codex', 'extra'], ['a b', '']]) {
      const parsed = parseCommandArgs('hook', [...args], OPTIONS);
      const node = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
      expect(parsed.positionals).toEqual(node.positionals);
      expect({ ...parsed.values }).toEqual({ ...node.values });
      expect(Object.getPrototypeOf(parsed.values)).toBe(Object.getPrototypeOf(node.values));
    }
  });

  it('still reads flags, applies defaults and refuses an unknown flag', () => {
    expect(parseCommandArgs('hook', ['codex', '--rulebook', 'r.md'], OPTIONS).values.rulebook).toBe('r.md');
    expect(parseCommandArgs('hook', ['codex'], { depth: { type: 'string', default: '3' } }).values.depth).toBe('3');
    expect(() => parseCommandArgs('hook', ['codex', '--nope'], OPTIONS)).toThrow(/holdfast hook: .*--nope/);
  });
});
