import { parse } from 'unbash';
import type { Command, Word } from 'unbash';
import { describe, expect, it } from 'vitest';
import { expandWord } from './shell-word.js';
import type { Expander } from './shell-word.js';

const variables: Record<string, string> = { NAME: 'orders', SPACED: 'a b  c', EMPTY: '' };

/** Expands the first argument of `echo <word>` with a fixed set of variables and substitutions. */
function expand(word: string): { text: string; literal: boolean; knownPrefix: string }[] {
  const command = parse(`echo ${word}`).commands[0]?.command as Command;
  const nested: string[] = [];
  const expander: Expander = {
    variable: (name) => variables[name],
    home: () => '/home/agent',
    substitute: (script) => (script?.commands.length === 1 ? { text: 'from-substitution\n', known: true } : { text: '', known: false }),
    runNested: () => nested.push('ran'),
  };
  return expandWord(command.suffix[0] as Word, expander).map(({ text, literal, knownPrefix }) => ({ text, literal, knownPrefix }));
}

describe('expandWord', () => {
  it.each([
    ['plain', ['plain']],
    ["'single $NAME'", ['single $NAME']],
    ['"double $NAME"', ['double orders']],
    ['a\\ b', ['a b']],
    ["$'tab\\there'", ['tab\there']],
    ['src/$NAME.ts', ['src/orders.ts']],
    ['${NAME}', ['orders']],
    ['$SPACED', ['a', 'b', 'c']],
    ['"$SPACED"', ['a b  c']],
    ['x$SPACED', ['xa', 'b', 'c']],
    ['$EMPTY', []],
    ['"$EMPTY"', ['']],
    ['~/notes', ['/home/agent/notes']],
    ['"~/notes"', ['~/notes']],
    ['$(cmd)', ['from-substitution']],
    ['"$(cmd)"', ['from-substitution']],
    ['`cmd`', ['from-substitution']],
  ])('expands %s to %j', (word, expected) => {
    const fields = expand(word);
    expect(fields.map((field) => field.text)).toEqual(expected);
    expect(fields.every((field) => field.literal)).toBe(true);
  });

  it.each([
    ['$UNSET', '$UNSET', ''],
    ['src/$UNSET.ts', 'src/$UNSET.ts', 'src/'],
    ['"key=$UNSET AKIA"', 'key=$UNSET AKIA', 'key='],
    ['${NAME:-x}', '${NAME:-x}', ''],
    ['*.ts', '*.ts', ''],
    ['{a,b}.ts', '{a,b}.ts', ''],
    ['$((1+2))', '$((1+2))', ''],
    ['~other/x', '~other/x', ''],
    ['$(a; b)', '$(a; b)', ''],
  ])('keeps %s visible but not literal', (word, text, knownPrefix) => {
    expect(expand(word)).toEqual([{ text, literal: false, knownPrefix }]);
  });
});
