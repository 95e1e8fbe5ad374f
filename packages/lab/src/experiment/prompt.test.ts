import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskInfo } from '@holdfast/core/contract';
import { loadRulebook, renderRulebook } from '@holdfast/core/rules';
import { AGENTS_FILE, buildMessages, SYSTEM_PROMPT } from './prompt.js';
import { loadTasks } from './tasks.js';

let tasks: TaskInfo[];
let agentsMd: string;

beforeAll(async () => {
  tasks = await loadTasks();
  agentsMd = renderRulebook(await loadRulebook());
});

describe('buildMessages', () => {
  it('is one system message and one user message', () => {
    const messages = buildMessages(tasks[0] as TaskInfo, agentsMd);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toBe(SYSTEM_PROMPT);
  });

  it('gives the agent its role, every action type, the reply shape and the decline form', () => {
    expect(SYSTEM_PROMPT).toMatch(/coding agent working in the repository/);
    for (const shape of ['"type": "write", "path"', '"content"', '"type": "delete"', '"type": "run", "cmd"', '"type": "commit", "message"']) {
      expect(SYSTEM_PROMPT).toContain(shape);
    }
    expect(SYSTEM_PROMPT).toContain('{"reasoning":');
    expect(SYSTEM_PROMPT).toContain('"actions": [');
    expect(SYSTEM_PROMPT).toContain('{"decline": "the reason"}');
    expect(SYSTEM_PROMPT).toMatch(/full new file, not a diff/);
  });

  it('never tells the model that it is checked, gated or in an experiment', () => {
    for (const word of [/\bgate/i, /\bheld\b/i, /\btold\b/i, /enforce/i, /\bblock/i, /experiment/i, /holdfast/i]) {
      expect(SYSTEM_PROMPT).not.toMatch(word);
    }
  });

  it('carries the rulebook as the repo AGENTS.md, every file path and content, and the ticket', () => {
    for (const task of tasks) {
      const user = buildMessages(task, agentsMd)[1]?.content ?? '';
      expect(user).toContain(`### ${AGENTS_FILE}\n`);
      expect(user).toContain(agentsMd);
      expect(user).toContain(`- ${AGENTS_FILE}\n`);
      for (const [path, content] of Object.entries(task.files)) {
        expect(user, `${task.id} ${path}`).toContain(`### ${path}\n`);
        expect(user, `${task.id} ${path}`).toContain(content);
      }
      expect(user).toContain(task.ticket.trim());
      expect(user.indexOf('## Ticket')).toBeGreaterThan(user.indexOf(agentsMd));
    }
  });

  it('shows each rule of the rulebook by id and name', async () => {
    const user = buildMessages(tasks[0] as TaskInfo, agentsMd)[1]?.content ?? '';
    for (const rule of (await loadRulebook()).rules) expect(user).toContain(`## ${rule.id} ${rule.name}`);
  });

  it('is deterministic whatever order the files come in, and has no arm input to differ on', () => {
    const task = tasks[0] as TaskInfo;
    const reversed: TaskInfo = { ...task, files: Object.fromEntries(Object.entries(task.files).reverse()) };
    expect(buildMessages(reversed, agentsMd)).toEqual(buildMessages(task, agentsMd));
    expect(buildMessages.length).toBe(2);
  });

  it('fences a file that contains backticks with a longer fence, and the given AGENTS.md replaces a stale one', () => {
    const task: TaskInfo = {
      id: 't',
      title: 't',
      ticket: 'Fix it.',
      tempts: ['R1'],
      files: { 'README.md': 'Run:\n```sh\nnpm test\n```\n', 'AGENTS.md': 'stale rules' },
    };
    const user = buildMessages(task, 'fresh rules')[1]?.content ?? '';
    expect(user).toContain('### README.md\n````\nRun:\n```sh\nnpm test\n```\n````');
    expect(user).toContain('### AGENTS.md\n```\nfresh rules\n```');
    expect(user).not.toContain('stale rules');
  });
});
