import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRulesEngine } from '../../decide/rules-engine.js';
import type { HookAnswer } from '../../decide/hook-answer.js';
import { answerAgentHook } from '../run-hook.js';
import { safeParseHookEvent, readPreToolUse } from '../hook-event.js';
import { openCodePluginText } from '../../install/opencode-plugin.js';
import { OPENCODE } from './index.js';
import { openCodeShellOutcome } from './post-tool-use.js';

/**
 * What holdfast's plugin handed the hook inside the real OpenCode 1.18.33
 * (fixtures/traffic/opencode-1.18.33, recorded with a scripted OpenAI-compatible server on 127.0.0.1),
 * read by the adapter, and the same events answered by the gate. The recording plugin loaded after
 * the gate's, so the refused write is not among the hook payloads: its event is the recorded edit's
 * envelope with the write call's arguments as the model sent them (requests/03, the assistant's tool call).
 */
const RECORDING = fileURLToPath(new URL('../../../../../fixtures/traffic/opencode-1.18.33/write-denied-shell-put-back', import.meta.url));
const T0 = new Date('2026-12-07T09:00:00.000Z');

function recorded(): Record<string, unknown>[] {
  const hooks = join(RECORDING, 'hooks');
  return readdirSync(hooks)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(hooks, name), 'utf8')) as Record<string, unknown>);
}

/** The refused write as the model sent it: the first tool call in the recorded requests. */
function recordedWriteArguments(): Record<string, unknown> {
  const body = JSON.parse(readFileSync(join(RECORDING, 'requests', '03-post-v1-chat-completions.json'), 'utf8')) as {
    messages: { role: string; tool_calls?: { function: { name: string; arguments: string } }[] }[];
  };
  const call = body.messages.find((message) => message.role === 'assistant')?.tool_calls?.[0]?.function;
  if (call?.name !== 'write') throw new Error('expected the recorded write call in requests/03');
  return JSON.parse(call.arguments) as Record<string, unknown>;
}

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-opencode-'));
  made.push(root);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'greet.ts'), 'export const greet = () => "hi";\n');
  return root;
}

/** A recorded event moved into `root`: its `cwd` and the run's folder inside its input are the new project's. */
function at(root: string, event: Record<string, unknown>, change: Record<string, unknown> = {}): string {
  const from = String(event.cwd);
  return JSON.stringify({ ...event, ...change, cwd: root })
    .split(from)
    .join(root);
}

function hook(input: string): Promise<HookAnswer> {
  return answerAgentHook('opencode', input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

describe('OpenCode 1.18.33, recorded plugin payloads', () => {
  const events = recorded();
  const [shell, shellAfter, edit, idle] = events;
  if (shell === undefined || shellAfter === undefined || edit === undefined || idle === undefined)
    throw new Error(`expected four recorded events in ${RECORDING}`);
  const write = { ...edit, tool_name: 'write', tool_input: recordedWriteArguments(), tool_use_id: 'call_scripted2_0' };

  it('names each event as the flow steps it: before, after (bash only), before, session.idle', () => {
    expect(events.map((event) => event.hook_event_name)).toEqual(['tool.execute.before', 'tool.execute.after', 'tool.execute.before', 'session.idle']);
    expect(OPENCODE.steps).toEqual({ 'tool.execute.before': 'before-call', 'tool.execute.after': 'after-call', 'session.idle': 'turn-end' });
  });

  it('reads write and edit (absolute filePath), and bash, as the actions they take', () => {
    const [writeCall, editCall, shellCall] = [write, edit, shell].map((event) => {
      const parsed = safeParseHookEvent(JSON.stringify(event), 'OpenCode');
      if (!parsed.ok) throw parsed.error;
      const pre = readPreToolUse(parsed.value.raw, 'OpenCode');
      if (!pre.ok) throw pre.error;
      return OPENCODE.readToolCall(pre.value, pre.value.cwd, () => 'export const greet = () => "hi";\n');
    });
    expect(writeCall?.actions).toEqual([{ type: 'write', path: 'src/debug.ts', content: "console.log('debug');\n" }]);
    expect(editCall?.actions).toEqual([{ type: 'write', path: 'src/greet.ts', content: 'export const greet = () => "hello";\n' }]);
    expect(JSON.stringify(shellCall?.unknownEffects ?? shellCall?.actions)).toContain('node');
    expect(OPENCODE.isShellTool('bash')).toBe(true);
    expect(OPENCODE.isOpaqueTool('read')).toBe(false);
    // A subagent's own calls reach the same plugin, but what `task` itself does is judged after it.
    expect(OPENCODE.isOpaqueTool('task')).toBe(true);
    expect(OPENCODE.isOpaqueTool('mcp_files_write')).toBe(true);
  });

  it("reads how the shell call ended from the plugin's tool_response.exit (OpenCode's metadata.exit)", () => {
    const after = safeParseHookEvent(JSON.stringify(shellAfter), 'OpenCode');
    if (!after.ok) throw after.error;
    expect(openCodeShellOutcome(after.value)).toEqual({ failed: true, ending: 'exit code 1' });
    expect(openCodeShellOutcome({ name: 'tool.execute.after', raw: { tool_response: { exit: 0 } } })).toEqual({ failed: false });
    expect(openCodeShellOutcome({ name: 'tool.execute.after', raw: { tool_response: { exit: null } } })).toEqual({
      failed: true,
      ending: 'OpenCode reported no exit status',
    });
  });

  it('denies the recorded write of a console.log with the rule in the reason', async () => {
    const root = project();
    const answer = JSON.parse((await hook(at(root, write))).stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toMatch(/R4 NOLOG/);
  });

  it('puts back what the recorded shell call wrote against a rule, and says so in a message for the tool output', async () => {
    const root = project();
    expect((await hook(at(root, shell))).stdout).toBe('');
    writeFileSync(join(root, 'src', 'x.ts'), 'console.log(1);\n');
    const told = JSON.parse((await hook(at(root, shellAfter))).stdout) as { message: string };
    expect(told.message).toMatch(/R4 NOLOG/);
    expect(readdirSync(join(root, 'src'))).toEqual(['greet.ts']);
  });
});

/** holdfast's plugin itself, loaded by Node as OpenCode's Bun loads it, with hook commands that answer as the hook does. */
describe('the OpenCode plugin shim', () => {
  type Hooks = Record<string, (input: unknown, output: Record<string, unknown>) => Promise<void>>;
  async function plugin(command: string): Promise<Hooks> {
    const folder = mkdtempSync(join(tmpdir(), 'holdfast-opencode-plugin-'));
    made.push(folder);
    const file = join(folder, 'holdfast-gate.mjs');
    writeFileSync(file, openCodePluginText(command));
    const module = (await import(pathToFileURL(file).href)) as { HoldfastGate: (context: { directory: string }) => Promise<Hooks> };
    return module.HoldfastGate({ directory: folder });
  }
  const call = { tool: 'write', sessionID: 's1', callID: 'c1' };

  it('fails closed: a hook that cannot run refuses the call with what is missing', async () => {
    const missing = join(tmpdir(), 'holdfast-moved-away', 'hook.cjs');
    const hooks = await plugin(`/bin/sh -c 'echo "holdfast gate: cannot run the hook: ${missing} is missing, so this call is refused." >&2; exit 2'`);
    await expect(hooks['tool.execute.before']?.(call, { args: { filePath: 'a.ts', content: '' } })).rejects.toThrow(/holdfast-moved-away.*is missing/);
    const silent = await plugin('exit 7');
    await expect(silent['tool.execute.before']?.(call, { args: {} })).rejects.toThrow(/the hook did not answer \(exit 7\)/);
    // A hook that stops without reading the event: writing it fails (EPIPE, certain with an event larger than a pipe holds),
    // and the refusal still names the hook's exit status.
    const early = await plugin('exec 0<&-; exit 7');
    await expect(early['tool.execute.before']?.(call, { args: { filePath: 'a.ts', content: 'x'.repeat(1 << 20) } })).rejects.toThrow(
      /the hook did not answer \(exit 7\)/,
    );
  });

  it('throws the reason of a deny, and appends a message to the output of the call it concerns', async () => {
    const deny = await plugin(`cat > /dev/null; echo '{"decision":"deny","reason":"holdfast: R4 NOLOG"}'`);
    await expect(deny['tool.execute.before']?.(call, { args: {} })).rejects.toThrow('holdfast: R4 NOLOG');
    const tell = await plugin(`cat > /dev/null; echo '{"message":"holdfast: put those changes back"}'`);
    const bash = { tool: 'bash', sessionID: 's1', callID: 'c2', args: { command: 'true' } };
    await tell['tool.execute.before']?.(bash, { args: bash.args });
    const output: Record<string, unknown> = { output: '(no output)', metadata: { exit: 0 } };
    await tell['tool.execute.after']?.(bash, output);
    expect(output.output).toBe('(no output)\n\nholdfast: put those changes back\n\nholdfast: put those changes back');
    const unread = await plugin('cat > /dev/null; echo not json');
    await expect(unread['tool.execute.before']?.(call, { args: {} })).rejects.toThrow(/not JSON/);
  });
});
