import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '@holdfast/core/contract';
import { parseAgentFile, readAgentFiles } from './agent-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'holdfast-agents-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseAgentFile', () => {
  it('reads the name, description and rules from the front matter and keeps the body as the prompt', () => {
    const agent = parseAgentFile(
      '---\nname: np-executor\ndescription: Runs one task.\nrules: [8, M9]\ntools: Read, Write\n---\n\nYou implement one task.\n',
      'agents/np-executor.md',
    );
    expect(agent).toMatchObject({
      id: 'np-executor',
      description: 'Runs one task.',
      rules: [8, 'M9'],
      prompt: 'You implement one task.',
      file: 'agents/np-executor.md',
    });
    expect(agent.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes the file name when there is no front matter, and claims every rule', () => {
    expect(parseAgentFile('You review diffs.\n', 'agents/np-critic.md')).toMatchObject({ id: 'np-critic', rules: undefined, prompt: 'You review diffs.' });
  });

  it('refuses front matter that is not YAML, a bad rules list, and an agent with no instructions', () => {
    expect(() => parseAgentFile('---\nname: [unclosed\n---\nbody\n', 'a.md')).toThrow(/a\.md: the front matter is not valid YAML/);
    expect(() => parseAgentFile('---\nrules: [0]\n---\nbody\n', 'b.md')).toThrow(/b\.md: front matter: /);
    expect(() => parseAgentFile('---\nname: x\n---\n\n', 'c.md')).toThrow(InputError);
  });
});

describe('readAgentFiles', () => {
  it('reads every Markdown file in name order and refuses two files defining one agent', async () => {
    await writeFile(join(dir, 'b.md'), '---\nname: np-b\n---\nB.\n');
    await writeFile(join(dir, 'a.md'), 'A.\n');
    await writeFile(join(dir, 'notes.txt'), 'not an agent');
    expect((await readAgentFiles(dir)).map((agent) => agent.id)).toEqual(['a', 'np-b']);
    await writeFile(join(dir, 'c.md'), '---\nname: np-b\n---\nAgain.\n');
    await expect(readAgentFiles(dir)).rejects.toThrow(/c\.md: agent "np-b" is also defined by .*b\.md/);
    await expect(readAgentFiles(join(dir, 'missing'))).rejects.toThrow(/cannot read the agents folder/);
  });
});
