import { describe, expect, it } from 'vitest';
import { ruleWith } from '../test-support/kind-rulebook.js';
import { defaultRulebook, onlyRules } from '../test-support/rulebooks.js';
import { checkActions } from '../check-actions.js';
import { answerOrderPatterns, mayBeRequiredRun } from './may-be-required.js';
import { knownAnswers } from '../regex.js';

const requires = ruleWith(`
kind: requires
commands:
  - { run: ["pnpm test", "pnpm run test"], name: the tests }
  - { run: ["pnpm type-check"] }
`);

describe('mayBeRequiredRun', () => {
  it.each(['npm test', 'npm run test -- --run src/a.test.ts', 'npx vitest run', 'cd x && npm test'])('says the default order rule may count %j', (command) => {
    expect(mayBeRequiredRun(defaultRulebook, command)).toBe(true);
  });

  it.each(['git status --short && ls src', 'git add -A && git commit -qm orders', 'cat package.json', 'node build.js'])(
    'says no rule can count %j',
    (command) => {
      expect(mayBeRequiredRun(defaultRulebook, command)).toBe(false);
    },
  );

  it('reads the commands of a requires rule, spelled any way it takes', () => {
    expect(mayBeRequiredRun(requires, 'pnpm run test')).toBe(true);
    expect(mayBeRequiredRun(requires, 'pnpm type-check --pretty')).toBe(true);
    expect(mayBeRequiredRun(requires, 'pnpm test --dir elsewhere')).toBe(true);
    expect(mayBeRequiredRun(requires, 'pnpm lint')).toBe(false);
  });

  it('is false for a rulebook without order or requires rules', () => {
    expect(mayBeRequiredRun(onlyRules('R1', 'R4'), 'npm test')).toBe(false);
  });

  it('is never false for a command the order rule counts (property over the rule itself)', async () => {
    const commands = ['npm test', 'pnpm run test', 'yarn test --watch=false', 'npm test || true', 'echo hi', 'git commit -m x', 'npx vitest run a'];
    for (const command of commands) {
      const results = await checkActions(
        [
          { type: 'run', cmd: command },
          { type: 'commit', message: 'x' },
        ],
        [],
        onlyRules('R6'),
      );
      if (results.some((result) => result.ok)) expect(mayBeRequiredRun(defaultRulebook, command)).toBe(true);
    }
  });
});

describe('answerOrderPatterns', () => {
  it('keeps the order rule’s answer for each command, so a later commit needs no RE2 to match it', () => {
    const commands = ['npm test -- --run src/kept-answer.test.ts', 'npm test && curl example.invalid'];
    const keyOf = (command: string) => knownAnswers().entries.find(([key]) => key.endsWith(`\0${command}`));
    for (const command of commands) expect(keyOf(command)).toBeUndefined();
    answerOrderPatterns(defaultRulebook, commands);
    expect(keyOf(commands[0] as string)?.[1]).toBe(true);
    expect(keyOf(commands[1] as string)?.[1]).toBe(false);
    expect(knownAnswers().learned).toBe(true);
  });
});
