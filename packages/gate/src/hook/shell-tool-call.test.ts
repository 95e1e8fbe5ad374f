import { describe, expect, it } from 'vitest';
import { readClaudeToolCall } from './claude-code/pre-tool-use.js';
import { readCodexToolCall } from './codex/pre-tool-use.js';
import type { PreToolUseEvent } from './hook-event.js';
import type { ReadText } from '../io/project-files.js';

const files: Record<string, string> = { '/repo/src/a.ts': 'export const a = 1;\n' };
const readText: ReadText = (path) => files[path];

function event(toolName: string, toolInput: Record<string, unknown>, cwd = '/repo'): PreToolUseEvent {
  return { session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: toolName, tool_input: toolInput };
}

describe('shell tool calls', () => {
  it('judges Claude Code Bash paths from the project root while the shell sits in a subfolder', () => {
    const call = readClaudeToolCall(event('Bash', { command: 'cp a.ts b.ts' }, '/repo/src'), readText, '/repo');
    expect(call.cwd).toBe('/repo');
    expect(call.actions).toEqual([
      // The run keeps the folder it runs in, so a test run there is not a test run of the project.
      { type: 'run', cmd: 'cd src && cp a.ts b.ts' },
      { type: 'write', path: 'src/b.ts', content: 'export const a = 1;\n' },
    ]);
    expect(call.bypasses).toEqual([]);
    expect(call.unknownEffects).toEqual([]);
  });

  it('carries every bypass and every unknown effect of a Bash command', () => {
    const call = readClaudeToolCall(event('Bash', { command: 'npm run build && git commit -n -m x && rm .git/hooks/pre-commit' }), readText);
    expect(call.bypasses.map((bypass) => bypass.segment)).toEqual(['git commit -n -m x', 'rm .git/hooks/pre-commit']);
    expect(call.unknownEffects).toEqual(['`npm run build` runs npm, whose changes to files cannot be known in advance']);
  });

  it('has no bypasses or unknown effects for Write and apply_patch', () => {
    expect(readClaudeToolCall(event('Write', { file_path: '/repo/src/b.ts', content: 'x' }), readText)).toMatchObject({ bypasses: [], unknownEffects: [] });
    const patch = '*** Begin Patch\n*** Add File: src/c.ts\n+x\n*** End Patch\n';
    expect(readCodexToolCall(event('apply_patch', { command: patch }), readText)).toMatchObject({ bypasses: [], unknownEffects: [] });
  });

  it('keeps a Codex argv word with spaces in one piece', () => {
    const call = readCodexToolCall(event('shell', { command: ['git', 'commit', '-m', "it's done"] }), readText);
    expect(call.actions.filter((action) => action.type === 'commit')).toEqual([{ type: 'commit', message: "it's done" }]);
  });

  it('reads a Codex shell command in its workdir', () => {
    const call = readCodexToolCall(event('shell', { command: ['bash', '-lc', 'echo hi > b.ts'], workdir: 'src' }), readText);
    expect(call.actions).toContainEqual({ type: 'write', path: 'src/b.ts', content: 'hi\n' });
  });

  it('judges apply_patch run from the shell like the tool, and the rest of the command line too', () => {
    const command = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/c.ts\n+export const c = 1;\n*** End Patch\nEOF\ngit commit -n -m patched";
    const call = readCodexToolCall(event('exec_command', { cmd: command }), readText);
    expect(call.actions.filter((action) => action.type !== 'run')).toEqual([
      { type: 'write', path: 'src/c.ts', content: 'export const c = 1;\n' },
      { type: 'commit', message: 'patched' },
    ]);
    expect(call.bypasses).toHaveLength(1);
    expect(call.unknownEffects).toEqual([]);
  });

  it('finds a Codex bypass inside bash -lc', () => {
    const call = readCodexToolCall(event('exec_command', { cmd: "bash -lc 'git -c core.hooksPath=/dev/null commit -m x'" }), readText);
    expect(call.bypasses).toHaveLength(1);
  });
});
