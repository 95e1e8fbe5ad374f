import { describe, expect, it } from 'vitest';
import { parseTargetsConfig } from './targets-config.js';
import { targetModes } from './target-modes.js';

const targets = parseTargetsConfig(
  [
    'targets:',
    '  - { id: local, provider: openai-compatible, model: llama3.1:8b, baseUrl: "http://localhost:11434/v1" }',
    '  - { id: hosted, provider: openai-compatible, model: m, baseUrl: "https://api.example.com/v1", keyEnv: HOSTED_KEY }',
    '  - { id: claude, provider: anthropic, model: c, keyEnv: ANTHROPIC_API_KEY }',
    '  - { id: cli, provider: command, model: claude-code, command: [claude, -p] }',
    '  - { id: cc, provider: claude-code, keyEnv: ANTHROPIC_API_KEY }',
    '  - { id: cx, provider: codex, binary: /opt/nowhere/codex }',
    '  - { id: gm, provider: gemini-cli }',
    '  - { id: mine, provider: agent, command: [./my-agent.sh] }',
  ].join('\n'),
).targets;

describe('targetModes', () => {
  it('knows which modes each provider plays', () => {
    expect(targets.map((target) => `${target.id}:${targetModes(target).join('+')}`)).toEqual([
      'local:plan+loop',
      'hosted:plan+loop',
      'claude:plan+loop',
      'cli:plan',
      'cc:agent',
      'cx:agent',
      'gm:agent',
      'mine:agent',
    ]);
  });
});
