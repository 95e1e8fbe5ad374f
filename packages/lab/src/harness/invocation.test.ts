import { describe, expect, it } from 'vitest';
import { parseTargetsConfig } from '../models/index.js';
import type { HarnessTarget } from '../models/index.js';
import { harnessInvocation } from './invocation.js';

function target(yaml: string): HarnessTarget {
  return parseTargetsConfig(`targets:\n  - ${yaml}`).targets[0] as HarnessTarget;
}

const context = {
  binary: '/bin/agent',
  prompt: 'Fix the bug.\n',
  workDir: '/arm/work',
  homeDir: '/arm/home',
  env: { PATH: '/usr/bin', HOME: '/root', ANTHROPIC_API_KEY: 'sk-ant-secret-value', GITHUB_TOKEN: 'ghp_x', OPENAI_API_KEY: 'sk-openai', LANG: 'C.UTF-8' },
};

describe('harnessInvocation', () => {
  it('Claude Code: -p with the ticket, JSON output, the turn cap, tools allowed; an isolated HOME; only named keys pass', () => {
    const invocation = harnessInvocation(
      target('{ id: cc, provider: claude-code, model: sonnet, env: [ANTHROPIC_API_KEY], maxTurns: 7, args: [--verbose] }'),
      context,
    );
    expect(invocation.file).toBe('/bin/agent');
    expect(invocation.args.slice(0, 6)).toEqual(['-p', 'Fix the bug.\n', '--output-format', 'json', '--max-turns', '7']);
    expect(invocation.args.slice(-3)).toEqual(['--model', 'sonnet', '--verbose']);
    expect(invocation.stdin).toBeUndefined();
    expect(invocation.env).toMatchObject({ PATH: '/usr/bin', HOME: '/arm/home', LANG: 'C.UTF-8', ANTHROPIC_API_KEY: 'sk-ant-secret-value' });
    expect(invocation.env.GITHUB_TOKEN).toBeUndefined();
    expect(invocation.env.OPENAI_API_KEY).toBeUndefined();
    expect(invocation.secrets).toEqual(['sk-ant-secret-value']);
  });

  it('Codex: exec --json in the repository, its own CODEX_HOME under the arm’s HOME, the ticket last', () => {
    const invocation = harnessInvocation(target('{ id: cx, provider: codex, keyEnv: OPENAI_API_KEY }'), context);
    expect(invocation.args.slice(0, 2)).toEqual(['exec', '--json']);
    expect(invocation.args).toContain('/arm/work');
    expect(invocation.args.at(-1)).toBe('Fix the bug.\n');
    expect(invocation.env).toMatchObject({ HOME: '/arm/home', CODEX_HOME: '/arm/home/.codex', OPENAI_API_KEY: 'sk-openai' });
    expect(invocation.secrets).toEqual(['sk-openai']);
  });

  it('Gemini CLI: -p with the ticket, --yolo, JSON output; the project trusted, an isolated HOME; only named keys pass', () => {
    const invocation = harnessInvocation(target('{ id: gm, provider: gemini-cli, env: [GEMINI_API_KEY], model: gemini-2.5-pro }'), {
      ...context,
      env: { ...context.env, GEMINI_API_KEY: 'gm-secret' },
    });
    expect(invocation.args).toEqual(['-p', 'Fix the bug.\n', '--yolo', '--output-format', 'json', '--model', 'gemini-2.5-pro']);
    expect(invocation.env).toMatchObject({ HOME: '/arm/home', GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_API_KEY: 'gm-secret' });
    expect(invocation.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(invocation.secrets).toEqual(['gm-secret']);
  });

  it('a generic agent: {prompt} and {maxTurns} filled in, or the ticket on stdin', () => {
    const withArgument = harnessInvocation(
      target("{ id: a, provider: agent, command: [my-agent, '--task={prompt}', --turns, '{maxTurns}'], maxTurns: 9 }"),
      context,
    );
    expect(withArgument.args).toEqual(['--task=Fix the bug.\n', '--turns', '9']);
    expect(withArgument.stdin).toBeUndefined();
    const onStdin = harnessInvocation(target('{ id: a, provider: agent, command: [my-agent, --quiet] }'), context);
    expect(onStdin.args).toEqual(['--quiet']);
    expect(onStdin.stdin).toBe('Fix the bug.\n');
  });
});
