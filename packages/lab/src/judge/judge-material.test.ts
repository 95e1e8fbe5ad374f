import { describe, expect, it } from 'vitest';
import type { ArmResult } from '@holdfast/core/contract';
import { judgeMaterial, MAX_MATERIAL_CHARS } from './judge-material.js';

const session: ArmResult = {
  arm: 'held',
  verdict: 'recovered',
  reason: 'Blocked once, then finished cleanly.',
  mode: 'loop',
  actions: [],
  checks: [],
  sandbox: {
    isolation: 'bubblewrap',
    baseCommit: 'abc',
    commits: [],
    diff: { text: 'diff --git a/src/price.ts b/src/price.ts\n+export const total = () => 42;\n', truncated: false, bytes: 60 },
    changedPaths: ['src/price.ts'],
    commands: [],
    refusedWrites: [],
  },
  session: {
    mode: 'loop',
    calls: [
      {
        index: 0,
        turn: 1,
        tool: 'write_file',
        input: { text: '{"path":"src/price.test.ts"}', truncated: false, bytes: 28 },
        actions: [],
        checks: [],
        decision: 'blocked',
        rule: 'R4',
        detail: 'R4 NOLOG: a console.log call',
        isError: true,
      },
      {
        index: 1,
        turn: 2,
        tool: 'run',
        input: { text: `{"cmd":"${'x'.repeat(700)}"}`, truncated: false, bytes: 712 },
        actions: [],
        checks: [],
        decision: 'applied',
        isError: false,
      },
    ],
    turns: 2,
    stop: { reason: 'done' },
    usage: {},
    wallMs: 10,
    landed: [],
    taskDone: { command: 'npm test', passed: true, outputTail: '' },
  },
};

describe('judgeMaterial', () => {
  it('gives a session the final diff and the timeline, decisions and details included, long inputs cut', () => {
    const material = judgeMaterial(session);
    expect(material.kind).toBe('diff-and-timeline');
    expect(material.text).toContain('Final diff against the starting commit:\ndiff --git a/src/price.ts b/src/price.ts');
    expect(material.text).toContain('#0 turn 1 write_file [blocked] {"path":"src/price.test.ts"} — R4 NOLOG: a console.log call');
    expect(material.text).toMatch(/#1 turn 2 run \[applied\] \{"cmd":"x+…/);
    expect(material.text).not.toContain('x'.repeat(700));
    expect(material.text).toContain("The repository's test command `npm test` passed afterwards.");
    // The judge is not told the deterministic verdict it is kept apart from.
    expect(material.text).not.toContain('recovered');
  });

  it('cuts a record past the cap and says so', () => {
    const long: ArmResult = {
      ...session,
      sandbox: { ...session.sandbox!, diff: { text: 'y'.repeat(MAX_MATERIAL_CHARS + 10), truncated: false, bytes: MAX_MATERIAL_CHARS + 10 } },
    };
    expect(judgeMaterial(long).text).toMatch(/\[cut: \d+ more characters\]$/);
  });
});
