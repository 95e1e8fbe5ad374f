import { describe, expect, it } from 'vitest';
import { parseTargetsConfig } from '../models/index.js';
import { targetProblem } from './target-problem.js';

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
const byId = (id: string) => targets.find((target) => target.id === id)!;

describe('targetProblem', () => {
  it('names the cause and the fix in one short line', () => {
    expect(targetProblem(byId('hosted'), { hasKey: false, reachable: true })).toBe('no key: set HOSTED_KEY in .env');
    expect(targetProblem(byId('local'), { hasKey: true, reachable: false })).toBe('ollama not running at localhost:11434: run `ollama serve`');
    expect(targetProblem(byId('hosted'), { hasKey: true, reachable: false })).toBe('not reachable at api.example.com: start the server or fix baseUrl');
    expect(targetProblem(byId('local'), { hasKey: true, reachable: true, modelMissing: true })).toBe('model not pulled: ollama pull llama3.1:8b');
    expect(targetProblem(byId('claude'), { hasKey: false, reachable: false })).toBe('no key: set ANTHROPIC_API_KEY in .env');
    expect(targetProblem(byId('cli'), { hasKey: true, reachable: false })).toBe('claude not installed: npm i -g @anthropic-ai/claude-code');
    expect(targetProblem(byId('cc'), { hasKey: false, reachable: true })).toBe('no key: set ANTHROPIC_API_KEY in .env');
    expect(targetProblem(byId('cx'), { hasKey: true, reachable: false })).toBe('codex not installed: npm i -g @openai/codex');
    expect(targetProblem(byId('cx'), { hasKey: true, reachable: true, unsetKeyVariables: ['OPENAI_API_KEY', 'CODEX_API_KEY'] })).toBe(
      'no key: set OPENAI_API_KEY or CODEX_API_KEY in .env',
    );
    expect(targetProblem(byId('gm'), { hasKey: true, reachable: false })).toBe('gemini not installed: npm i -g @google/gemini-cli');
    expect(targetProblem(byId('mine'), { hasKey: true, reachable: false })).toBe('my-agent.sh not found: install it or fix "command" in holdfast.config.yaml');
  });

  it('has a line for every target that is not reachable, whatever its provider', () => {
    for (const target of targets) expect(targetProblem(target, { hasKey: true, reachable: false }), target.id).toMatch(/: /);
  });

  it('says nothing when nothing is known to stop the target', () => {
    for (const target of targets) expect(targetProblem(target, { hasKey: true, reachable: true }), target.id).toBeUndefined();
  });
});
