import { describe, expect, it } from 'vitest';
import { ADVERSARIAL } from './test-support/adversarial-replies.js';
import { parseReply } from './parse-reply.js';
import { repairJson } from './repair-json.js';

/**
 * The bench's adversarial shapes, read as they were before the linear-growth fast paths (the
 * chunked repair output, the lone action list used uncopied, the typed scan stack): each answer
 * here was recorded from main 6930aeb and must not change.
 */
const BEFORE: Record<string, string> = {
  'runs of {': 'no readable JSON reply: repair failed (the text around the JSON is not JSON that a repair could fix)',
  'runs of [': 'no readable JSON reply',
  'runs of "': 'no JSON in the reply',
  '"actions": [ repeated': 'no readable JSON reply',
  '{"actions": [ then quotes': 'action 0: expected an object, got a string',
  'nested {"actions": {': 'no readable JSON reply: repair failed (the text around the JSON is not JSON that a repair could fix)',
  '{} pairs': 'action 0: unknown type "x"; expected write, delete, run or commit',
};

function emptyStrings(count: number): string {
  return Array.from({ length: count }, () => '""').join(',');
}

describe('adversarial reply shapes keep their answers', () => {
  it('covers every shape the bench times', () => {
    expect(Object.keys(BEFORE).sort()).toEqual(Object.keys(ADVERSARIAL).sort());
  });

  for (const size of [3_000, 30_000]) {
    it.each(Object.entries(ADVERSARIAL))(`reads %s at ${size} characters as before`, (name, make) => {
      expect(parseReply(make(size))).toEqual({ kind: 'unparseable', reason: BEFORE[name] });
    });
  }

  it('repairs a run of quotes into the same empty strings, across many output chunks', () => {
    expect(repairJson(`{"actions": [${'"'.repeat(30_000)}`)).toBe(`{"actions":[${emptyStrings(15_000)}]}`);
    expect(repairJson(`{"actions": [${'"'.repeat(30_001)}`)).toBe(`{"actions":[${emptyStrings(15_001)}]}`);
    expect(repairJson('"'.repeat(30_000))).toBe(`[${emptyStrings(15_000)}]`);
    expect(repairJson('{"type":"x"}'.repeat(2_500))).toBe(`[${Array.from({ length: 2_500 }, () => '{"type":"x"}').join(',')}]`);
  });

  it('reads {} pairs at 1 MB, and with what follows or precedes them, as before', () => {
    // Recorded from main 340f2bc, which kept every object; now each object after the first
    // failing one is dropped as soon as it is parsed (ReadingList), so the count must still hold.
    const pairs = (count: number): string => '{"type":"x"}'.repeat(count);
    const unknownX = (index: number): string => `action ${index}: unknown type "x"; expected write, delete, run or commit`;
    const run = '{"type":"run","cmd":"ls"}';
    const cases: Array<[string, string]> = [
      [ADVERSARIAL['{} pairs']?.(1_000_000) ?? '', unknownX(0)],
      [`${pairs(20_000)}{"decline":"not this"}`, 'the reply both declines ("not this") and lists 20000 actions; refusing to guess which is meant'],
      [`${run}${pairs(20_000)}`, unknownX(1)],
      [`{"actions":[${run}]}${pairs(20_000)}`, unknownX(1)],
      [`${pairs(20_000)}{"actions":[${run}]}`, unknownX(0)],
      [`\`\`\`json\n${pairs(20_000)}\n\`\`\``, unknownX(0)],
      [`{"type":"run"}${pairs(20_000)}`, 'action 0 (run): field "cmd" is missing'],
    ];
    for (const [text, reason] of cases) expect(parseReply(text)).toEqual({ kind: 'unparseable', reason });
  });

  it('reads many valid action objects, one list or several, as before', () => {
    const run = '{"type":"run","cmd":"ls"}';
    const bare = parseReply(run.repeat(1_200));
    expect(bare).toMatchObject({ kind: 'actions', method: 'salvaged' });
    expect(bare.kind === 'actions' && bare.actions.length).toBe(1_200);
    const inProse = parseReply(`ok ${run.repeat(1_200)}`);
    expect(inProse).toMatchObject({ kind: 'actions', method: 'repaired' });
    expect(inProse.kind === 'actions' && inProse.actions.length).toBe(1_200);
    const lone = parseReply(JSON.stringify({ actions: Array.from({ length: 1_200 }, () => ({ type: 'run', cmd: 'ls' })) }));
    expect(lone).toMatchObject({ kind: 'actions', method: 'json' });
    expect(lone.kind === 'actions' && lone.actions.length).toBe(1_200);
  });
});
