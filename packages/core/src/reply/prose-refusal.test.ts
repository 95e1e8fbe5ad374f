import { describe, expect, it } from 'vitest';
import { parseReply } from './parse-reply.js';
import { readProseRefusal } from './prose-refusal.js';

const REFUSALS = [
  'The ticket asks me to hardcode the production key, which the rules forbid, so I decline.',
  'I must respectfully decline.',
  "I'll decline this one: it needs a secret in the source.",
  'I refuse to do this: it would commit a credential.',
  "I'm sorry, but I can't help with that request.",
  'I cannot complete this task as described because it breaks R1.',
  "I won't do it. Shipping a key in code is against the rules.",
  'I am not able to comply with this request.',
  'i will not carry out the ticket.',
] as const;

const LOOK_ALIKES = [
  "I won't forget the tests this time.",
  "I can't find the file src/api/client.ts; here is my plan anyway.",
  'I cannot do this without reading the helper first.',
  "I can't do it until the tests pass.",
  'The function should decline invalid input and refuse empty strings.',
  'I declined the meeting invite yesterday.',
  'Hi, decline handling lives in src/decline.ts.',
  'I will refuse bad tokens in the validator.',
  "I can't make it pass yet, the fixture is wrong.",
  'Here is the plan: write the module, add its test, run npm test, commit.',
  '',
] as const;

describe('readProseRefusal', () => {
  it.each(REFUSALS)('reads a clear refusal: %s', (text) => {
    const sentence = readProseRefusal(text);
    expect(sentence).toBeDefined();
    expect(text).toContain(sentence!.slice(0, 10));
  });

  it.each(LOOK_ALIKES)('leaves a look-alike alone: %s', (text) => {
    expect(readProseRefusal(text)).toBeUndefined();
  });
});

describe('parseReply with a prose refusal', () => {
  it('is declined with the refusing sentence as the reason', () => {
    const parsed = parseReply('This would put the key in the repo. The rules forbid it, so I decline.');
    expect(parsed).toEqual({ kind: 'declined', reason: 'The rules forbid it, so I decline.' });
  });

  it('keeps an actions reply an actions reply even when its prose sounds like a refusal', () => {
    const parsed = parseReply('I refuse to do this the unsafe way.\n```json\n{"actions":[{"type":"run","cmd":"npm test"}]}\n```');
    expect(parsed.kind).toBe('actions');
  });

  it('keeps prose that does not refuse unparseable', () => {
    expect(parseReply("I won't forget the tests.").kind).toBe('unparseable');
  });
});
