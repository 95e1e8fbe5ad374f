import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '@holdfast/core/contract';
import { createAdapter } from './create-adapter.js';
import {
  DEFAULT_AGENT_MAX_TURNS,
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_TARGETS,
  isHarnessTarget,
  loadTargetsConfig,
  parseTargetsConfig,
  safeParseTargetsConfig,
  toTargetInfo,
} from './targets-config.js';

function errorOf(text: string): string {
  const result = safeParseTargetsConfig(text, 'holdfast.config.yaml');
  if (result.success) throw new Error('expected the config to be refused');
  expect(result.error).toBeInstanceOf(InputError);
  expect(result.error.code).toBe('E_CONFIG');
  return result.error.message;
}

describe('targets config', () => {
  it('reads the three providers and fills defaults', () => {
    const config = parseTargetsConfig(`
targets:
  - id: ollama
    provider: openai-compatible
    model: llama3.1:8b
    baseUrl: http://localhost:11434/v1
  - id: claude
    provider: anthropic
    model: claude-sonnet-4-5
    temperature: 0.2
  - id: claude-code
    provider: command
    command: [claude, -p]
    env: [CLAUDE_CONFIG_DIR]
`);
    expect(config.targets).toEqual([
      { id: 'ollama', provider: 'openai-compatible', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1', tokenParameter: 'max_tokens' },
      { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0.2, baseUrl: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY' },
      { id: 'claude-code', provider: 'command', command: ['claude', '-p'], env: ['CLAUDE_CONFIG_DIR'] },
    ]);
  });

  it('names the file, the target and the field of a bad value', () => {
    const message = errorOf(`
targets:
  - id: gpt
    provider: openai-compatible
    model: gpt-4.1
    baseUrl: https://api.openai.com/v1
    temperature: 5
`);
    expect(message).toContain('holdfast.config.yaml: target "gpt", field "temperature"');
  });

  it('refuses unknown keys, naming them', () => {
    const message = errorOf(`
targets:
  - id: gpt
    provider: openai-compatible
    model: gpt-4.1
    baseUrl: https://api.openai.com/v1
    apiKey: oops
`);
    expect(message).toContain('target "gpt"');
    expect(message).toContain('apiKey');
  });

  it('names a mistyped key first, with the valid key it meant, and not the meant key as missing', () => {
    const message = errorOf(`
targets:
  - id: local
    provider: openai-compatible
    model: llama3
    baseURL: http://127.0.0.1:11434/v1
`);
    expect(message.split('\n')).toEqual(['holdfast.config.yaml: target "local": unknown key "baseURL": did you mean "baseUrl"?']);
  });

  it('suggests the nearest key of the file itself, and lists the valid keys when none is near', () => {
    expect(errorOf('target: []\n').split('\n')[0]).toBe('holdfast.config.yaml: unknown key "target": did you mean "targets"?');
    const far = errorOf(`
targets:
  - id: claude
    provider: claude-code
    colour: blue
`);
    expect(far.split('\n')[0]).toBe(
      'holdfast.config.yaml: target "claude": unknown key "colour": remove it (valid keys: id, model, env, keyEnv, timeoutMs, maxTurns, binary, args, provider)',
    );
  });

  it('refuses a key where a variable name belongs, without repeating it', () => {
    const message = errorOf(`
targets:
  - id: gpt
    provider: openai-compatible
    model: gpt-4.1
    baseUrl: https://api.openai.com/v1
    keyEnv: sk-proj-abc123-secret
`);
    expect(message).toContain('field "keyEnv"');
    expect(message).toContain('NAME of an environment variable');
    expect(message).not.toContain('sk-proj-abc123-secret');
  });

  it('refuses an unknown provider, a missing base URL, an empty command and a duplicate id', () => {
    expect(errorOf('targets:\n  - { id: a, provider: gemini, model: x }')).toMatch(
      /target "a", field "provider".*'openai-compatible' \| 'anthropic' \| 'command'/,
    );
    expect(errorOf('targets:\n  - { id: a, provider: openai-compatible, model: x }')).toContain('target "a", field "baseUrl"');
    expect(errorOf('targets:\n  - { id: a, provider: command, command: [] }')).toContain('target "a", field "command"');
    expect(errorOf('targets:\n  - { id: a, provider: anthropic, model: x }\n  - { id: a, provider: anthropic, model: y }')).toContain('"a" is used twice');
  });

  it('refuses unknown top-level keys and broken YAML', () => {
    expect(errorOf('targets: []\nextra: 1')).toContain('extra');
    expect(errorOf('targets: [')).toContain('not valid YAML');
  });

  it('falls back to the local Ollama target when there is no file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'holdfast-config-'));
    try {
      expect(await loadTargetsConfig(folder)).toEqual({ source: 'built-in', targets: DEFAULT_TARGETS });
      await writeFile(join(folder, 'holdfast.config.yaml'), 'targets:\n  - { id: c, provider: command, command: [node] }\n');
      const loaded = await loadTargetsConfig(folder);
      expect(loaded.source).toBe(join(folder, 'holdfast.config.yaml'));
      expect(loaded.targets.map((target) => target.id)).toEqual(['c']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('parses the shipped example', async () => {
    const text = await readFile(new URL('../../../../holdfast.config.yaml', import.meta.url), 'utf8');
    const config = parseTargetsConfig(text);
    expect(config.targets.map((target) => target.provider)).toEqual(expect.arrayContaining(['openai-compatible', 'anthropic', 'command']));
    expect(config.targets.some((target) => target.provider === 'openai-compatible' && target.baseUrl === 'http://localhost:11434/v1')).toBe(true);
  });

  it('every keyEnv of the shipped example is listed in .env.example', async () => {
    const config = parseTargetsConfig(await readFile(new URL('../../../../holdfast.config.yaml', import.meta.url), 'utf8'));
    const example = await readFile(new URL('../../../../.env.example', import.meta.url), 'utf8');
    for (const target of config.targets) {
      if (target.keyEnv !== undefined) expect(example).toMatch(new RegExp(`^#?\\s*${target.keyEnv}=`, 'm'));
    }
  });
});

describe('toTargetInfo', () => {
  it('keeps id, provider, model and base URL, and nothing about the key', () => {
    const [target] = parseTargetsConfig(
      'targets:\n  - { id: o, provider: openai-compatible, model: m, baseUrl: "https://x.test/v1", keyEnv: OPENAI_API_KEY }',
    ).targets;
    if (target === undefined) throw new Error('no target');
    expect(toTargetInfo(target)).toEqual({ id: 'o', provider: 'openai-compatible', model: 'm', baseUrl: 'https://x.test/v1' });
  });
});

describe('agent harness targets', () => {
  it('reads claude-code, codex and a generic agent, with the harness defaults', () => {
    const config = parseTargetsConfig(`
targets:
  - id: cc
    provider: claude-code
    model: claude-sonnet-4-5
    env: [ANTHROPIC_API_KEY]
    maxTurns: 20
  - id: cx
    provider: codex
    binary: /opt/codex/bin/codex
    args: [-c, model_reasoning_effort=low]
    timeoutMs: 60000
  - id: mine
    provider: agent
    command: [my-agent, --task, '{prompt}']
`);
    expect(config.targets).toEqual([
      {
        id: 'cc',
        provider: 'claude-code',
        model: 'claude-sonnet-4-5',
        env: ['ANTHROPIC_API_KEY'],
        maxTurns: 20,
        args: [],
        timeoutMs: DEFAULT_AGENT_TIMEOUT_MS,
      },
      {
        id: 'cx',
        provider: 'codex',
        binary: '/opt/codex/bin/codex',
        args: ['-c', 'model_reasoning_effort=low'],
        env: [],
        timeoutMs: 60000,
        maxTurns: DEFAULT_AGENT_MAX_TURNS,
      },
      {
        id: 'mine',
        provider: 'agent',
        command: ['my-agent', '--task', '{prompt}'],
        env: [],
        timeoutMs: DEFAULT_AGENT_TIMEOUT_MS,
        maxTurns: DEFAULT_AGENT_MAX_TURNS,
      },
    ]);
    expect(config.targets.map(isHarnessTarget)).toEqual([true, true, true]);
    expect(toTargetInfo(config.targets[0]!)).toEqual({ id: 'cc', provider: 'claude-code', model: 'claude-sonnet-4-5' });
  });

  it('names the file, target and field of a bad harness setting, and what to write', () => {
    expect(errorOf('targets:\n  - { id: mine, provider: agent, command: [] }')).toContain(
      'holdfast.config.yaml: target "mine", field "command": an agent target needs the program and its arguments, e.g. ["my-agent", "--task", "{prompt}"]',
    );
    expect(errorOf('targets:\n  - { id: cc, provider: claude-code, env: [sk-ant-123] }')).toContain(
      'field "env.0": this is the NAME of an environment variable',
    );
    expect(errorOf('targets:\n  - { id: cc, provider: claude-code, maxTurns: 0 }')).toContain('target "cc", field "maxTurns"');
    expect(errorOf('targets:\n  - { id: cx, provider: codex, baseUrl: "http://x.test" }')).toContain('target "cx"');
  });

  it('refuses Claude Code flags that would switch the project hooks off', () => {
    expect(errorOf('targets:\n  - { id: cc, provider: claude-code, args: [--verbose, --bare] }')).toContain(
      'target "cc", field "args.1": "--bare" makes Claude Code skip project hooks',
    );
  });

  it('a harness is not a model adapter: createAdapter says to use --mode agent', () => {
    const [target] = parseTargetsConfig('targets:\n  - { id: cc, provider: claude-code }').targets;
    expect(() => createAdapter(target!, {})).toThrow(/agent harness.*--mode agent/);
  });
});
