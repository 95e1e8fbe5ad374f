import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from './main.js';

// docs/commands.md is held to the command's own --help: every verb and subverb the command offers has a row, and
// every exit code any --help names is in the exit code table. A verb or code added on a branch fails here, naming
// the row to add.

const DOC_PATH = 'docs/commands.md';
const doc = readFileSync(new URL('../../../docs/commands.md', import.meta.url), 'utf8');

async function help(...args: string[]): Promise<string> {
  const io = memoryIo({ cwd: process.cwd(), env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  await main([...args, '--help'], io);
  return io.out();
}

/** `holdfast VERB[|VERB] [SUB[|SUB]]` of each command table row's first cell, as [verb, sub] pairs. */
function documented(): Set<string> {
  const names = new Set<string>();
  for (const line of doc.split('\n')) {
    const firstCell = /^\| (.+?) \| /.exec(line.replace(/\\\|/g, '\u0000'))?.[1];
    if (firstCell === undefined) continue;
    for (const [, span] of firstCell.matchAll(/`holdfast ([^`]+)`/g)) {
      const [verbs = '', subs = ''] = span!.split(/\s+/);
      for (const verb of verbs.split('\u0000')) {
        names.add(verb);
        for (const sub of subs.split('\u0000')) if (/^[a-z][a-z-]*$/.test(sub)) names.add(`${verb} ${sub}`);
      }
    }
  }
  return names;
}

/** The subverbs a --help lists under "Subverbs:" (two-space indent, a name first). */
function subverbsOf(text: string): string[] {
  const section = /\nSubverbs:\n((?: {2}.*\n?| {4,}.*\n?)+)/.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((match) => match[1]!);
}

/** Every exit code a --help names in its "Exit codes:" sentence. */
function exitCodesOf(text: string): number[] {
  const sentence = /Exit codes?:([\s\S]*?)(?:\.\s*$|\.\n\n|$)/.exec(text)?.[1] ?? '';
  return [...sentence.matchAll(/(?:^|[,;:]|\bor)\s*(\d{1,3})\s+(?=[a-z(])/g)].map((match) => Number(match[1]));
}

describe(`${DOC_PATH} matches each verb's --help`, () => {
  it('has a row for every verb and subverb, and every exit code in its table', async () => {
    const top = await help();
    const verbs = [...top.matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((match) => match[1]!);
    expect(verbs.length).toBeGreaterThan(10);
    const rows = documented();
    const missing: string[] = [];
    const codes = new Set(exitCodesOf(top));
    for (const verb of verbs) {
      const text = await help(verb);
      for (const code of exitCodesOf(text)) codes.add(code);
      const usage = /Usage: (holdfast [^\n]*)/.exec(text)?.[1] ?? `holdfast ${verb}`;
      if (!rows.has(verb)) missing.push(`no row for \`holdfast ${verb}\`: add | \`${usage}\` | what it does | (from \`holdfast ${verb} --help\`)`);
      for (const sub of subverbsOf(text)) {
        if (rows.has(`${verb} ${sub}`)) continue;
        const subUsage = /Usage: (holdfast [^\n]*)/.exec(await help(verb, sub))?.[1] ?? `holdfast ${verb} ${sub}`;
        missing.push(`no row for \`holdfast ${verb} ${sub}\`: add | \`${subUsage}\` | what it does | (from \`holdfast ${verb} ${sub} --help\`)`);
      }
    }
    const table = new Set([...doc.matchAll(/^\| `(\d{1,3})` \|/gm)].map((match) => Number(match[1])));
    for (const code of [...codes].sort((a, b) => a - b)) {
      if (!table.has(code)) missing.push(`no row for exit code ${code} in the "Exit codes" table: add | \`${code}\` | what it means |`);
    }
    expect(missing, `${DOC_PATH}:\n${missing.join('\n')}`).toEqual([]);
  });
});
