import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { AGENT_CLIENTS } from '@holdfast/lab/harness';
import type { AgentClientName } from '@holdfast/lab/harness';
import { runScenario } from '@holdfast/lab/test-support';
import type { ScenarioOptions } from '@holdfast/lab/test-support';
import { makeGitRepo } from '@holdfast/lab/test-support';
import { holdfast } from '@holdfast/lab/test-support';
import type { ScriptStep } from '@holdfast/lab/test-support';

/**
 * Records what the real clients send to the model and to their hooks, once per scenario, into
 * fixtures/traffic/<client>-<version>/<scenario>/: requests/NN-<method>-<path>.json (each request body,
 * byte for byte) with requests/index.json (method, path, headers), and hooks/NN-<event>-<tool>.json
 * (each hook's stdin, byte for byte) with hooks/runner.txt (how the client started the hook command).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECORDER = join(ROOT, 'test', 'record', 'record-hook.sh');

interface Recording {
  readonly client: AgentClientName;
  readonly scenario: string;
  readonly steps: readonly ScriptStep[];
  /** Also install holdfast's gate (its hook and the recorder run side by side). */
  readonly gate?: boolean;
  readonly args?: ScenarioOptions['args'];
  /** Also keep the session transcript as the client's PostToolUse hooks could read it (NN-<event>-<tool>.transcript.jsonl). */
  readonly transcripts?: boolean;
}

function slug(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

function installRecorder(client: AgentClientName, repo: string, into: string): void {
  if (client === 'copilot') {
    // Copilot CLI reads every .github/hooks/*.json: camelCase events, a `bash` command, timeoutSec.
    const hook = { type: 'command', bash: `${RECORDER} ${into} && :`, timeoutSec: 30 };
    const events = ['preToolUse', 'postToolUse', 'agentStop'];
    mkdirSync(join(repo, '.github', 'hooks'), { recursive: true });
    writeFileSync(
      join(repo, '.github', 'hooks', 'record.json'),
      `${JSON.stringify({ version: 1, hooks: Object.fromEntries(events.map((event) => [event, [hook]])) }, null, 2)}\n`,
    );
    return;
  }
  if (client === 'opencode') {
    // OpenCode runs plugins, not commands: a copy of holdfast's plugin (installed with the gate) whose hook is the
    // recorder, named to load before the gate's, so it also sees the calls the gate refuses.
    const plugin = join(repo, '.opencode', 'plugin');
    const gate = readFileSync(join(plugin, 'holdfast-gate.js'), 'utf8');
    const line = /^const HOLDFAST_HOOK = .*;$/m;
    if (!line.test(gate)) throw new Error('the recorder expects holdfast install opencode to have written its plugin (gate: true)');
    writeFileSync(join(plugin, '0-holdfast-record.js'), gate.replace(line, `const HOLDFAST_HOOK = ${JSON.stringify(`${RECORDER} ${into} && :`)};`));
    return;
  }
  const hook = { type: 'command', command: `${RECORDER} ${into} && :`, timeout: 30 };
  const settings: Partial<Record<AgentClientName, string>> = {
    'claude-code': join(repo, '.claude', 'settings.json'),
    codex: join(repo, '.codex', 'hooks.json'),
    'qwen-code': join(repo, '.qwen', 'settings.json'),
  };
  const file = settings[client];
  if (file === undefined) throw new Error(`the recorder has no hook settings for ${client}`);
  let config: { hooks?: Record<string, unknown[]> } = {};
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as typeof config;
  } catch {
    mkdirSync(join(file, '..'), { recursive: true });
  }
  const hooks = config.hooks ?? {};
  const events = client === 'codex' ? ['PreToolUse', 'PostToolUse'] : ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];
  for (const event of events) hooks[event] = [...(hooks[event] ?? []), { matcher: '*', hooks: [hook] }];
  hooks.Stop = [...(hooks.Stop ?? []), { hooks: [hook] }];
  writeFileSync(file, `${JSON.stringify({ ...config, hooks }, null, 2)}\n`);
}

async function record(recording: Recording): Promise<void> {
  const spec = AGENT_CLIENTS[recording.client];
  const out = join(ROOT, 'fixtures', 'traffic', `${recording.client}-${spec.version}`, recording.scenario);
  rmSync(out, { recursive: true, force: true });
  const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' }, 'holdfast-record-');
  if (recording.gate === true) holdfast(repo, 'install', recording.client);
  const calls = mkdtempSync(join(tmpdir(), 'holdfast-record-hooks-'));
  installRecorder(recording.client, repo, calls);
  const result = await runScenario({
    client: recording.client,
    repo,
    steps: recording.steps,
    ...(recording.args !== undefined ? { args: recording.args } : {}),
  });
  expect(result.run.exitCode, result.explain()).toBe(0);
  expect(result.problems, result.explain()).toEqual([]);

  mkdirSync(join(out, 'requests'), { recursive: true });
  const index = result.requests.map((request, number) => {
    const file = `${String(number + 1).padStart(2, '0')}-${request.method.toLowerCase()}-${slug(request.path.split('?')[0] ?? '') || 'root'}.json`;
    if (request.rawBody !== '') writeFileSync(join(out, 'requests', file), request.rawBody);
    return { file: request.rawBody !== '' ? file : null, method: request.method, path: request.path, headers: request.headers };
  });
  writeFileSync(join(out, 'requests', 'index.json'), `${JSON.stringify(index, null, 2)}\n`);

  mkdirSync(join(out, 'hooks'), { recursive: true });
  const payloads = readdirSync(calls)
    .filter((name) => name.endsWith('.json'))
    .sort();
  payloads.forEach((name, number) => {
    const bytes = readFileSync(join(calls, name), 'utf8');
    const event = JSON.parse(bytes) as { hook_event_name?: string; tool_name?: string; toolName?: string; toolResult?: unknown; stopReason?: unknown };
    // Copilot CLI names no event in its payloads: told apart by their fields.
    const copilotEvent =
      event.toolName === undefined ? (event.stopReason !== undefined ? 'agentStop' : undefined) : event.toolResult !== undefined ? 'postToolUse' : 'preToolUse';
    const label = [event.hook_event_name ?? copilotEvent, event.tool_name ?? event.toolName]
      .filter((part) => part !== undefined)
      .map((part) => slug(String(part)))
      .join('-');
    const file = join(out, 'hooks', `${String(number + 1).padStart(2, '0')}-${label}`);
    writeFileSync(`${file}.json`, bytes);
    const transcript = join(calls, name.replace(/\.json$/, '.transcript'));
    if (recording.transcripts === true && event.hook_event_name === 'PostToolUse' && existsSync(transcript))
      copyFileSync(transcript, `${file}.transcript.jsonl`);
  });
  const parent = payloads[0] === undefined ? '' : readFileSync(join(calls, payloads[0].replace(/\.json$/, '.parent')), 'utf8');
  writeFileSync(join(out, 'hooks', 'runner.txt'), `${parent.trim()}\n`);
  expect(payloads.length, result.explain()).toBeGreaterThan(0);
}

const SHELL = { shell: 'echo hi > notes.txt' };
/** A command that passes, then one that fails: what each client tells its hooks about the exit status. */
const PASSING_SHELL = { shell: "echo 'tests: 3 passed'" };
const FAILING_SHELL = { shell: "echo 'tests: 1 failed' && exit 3" };
const WRITE = { writeFile: { path: 'src/answer.ts', content: 'export const answer = 41;\n' } };
const EDIT = { editFile: { path: 'src/answer.ts', oldText: 'export const answer = 41;\n', newText: 'export const answer = 42;\n' } };
const CONSOLE_LOG = { writeFile: { path: 'src/debug.test.ts', content: "console.log('debug');\n" } };

it('claude-code: Bash, Write and Edit allowed, each seen before and after, then Stop', () =>
  record({ client: 'claude-code', scenario: 'bash-write-edit-allowed', steps: [SHELL, WRITE, EDIT, { text: 'Done.' }] }));

it('claude-code: the gate denies a Write and the reason comes back to the model as an error tool_result', () =>
  record({ client: 'claude-code', scenario: 'write-denied-reason-reaches-model', gate: true, steps: [CONSOLE_LOG, { text: 'I was refused.' }] }));

it('codex: exec_command and apply_patch (add, then update) allowed, each seen before and after, then Stop', () =>
  record({ client: 'codex', scenario: 'exec-command-apply-patch-allowed', steps: [SHELL, WRITE, EDIT, { text: 'Done.' }] }));

it('codex: the gate denies an apply_patch and the reason comes back to the model in the tool output', () =>
  record({ client: 'codex', scenario: 'apply-patch-denied-reason-reaches-model', gate: true, steps: [CONSOLE_LOG, { text: 'I was refused.' }] }));

it('claude-code: a passing Bash command reaches PostToolUse, a failing one PostToolUseFailure with its exit code', () =>
  record({ client: 'claude-code', scenario: 'bash-exit-status', steps: [PASSING_SHELL, FAILING_SHELL, { text: 'The second failed.' }] }));

it('codex: both exec_commands reach PostToolUse with their output only; the exit code is in the session log', () =>
  record({ client: 'codex', scenario: 'exec-command-exit-status', steps: [PASSING_SHELL, FAILING_SHELL, { text: 'The second failed.' }], transcripts: true }));

// Qwen Code 0.24.4 on Node 24, OpenAI chat completions: the gate denies the write_file, a shell command writes a
// module with a console.log and exits 1 (put back, and how its end reaches PostToolUseFailure), then Stop.
it('qwen-code: a denied write_file, a failing shell write put back, then Stop', () =>
  record({
    client: 'qwen-code',
    scenario: 'write-denied-shell-put-back',
    gate: true,
    steps: [
      { writeFile: { path: 'src/debug.ts', content: "console.log('debug');\n" } },
      { shell: "node -e \"require('fs').writeFileSync('src/x.ts', 'console.log(1);\\n')\"; exit 1" },
      { text: 'I was refused.' },
    ],
  }));

// Copilot CLI 1.0.102 offline (COPILOT_OFFLINE, a custom provider on chat completions, no GitHub login): what its
// preToolUse, postToolUse and agentStop hooks receive for create, a passing and a failing bash; no gate (no adapter yet).
it('copilot: create, a passing and a failing bash, each seen before and after, then agentStop', () =>
  record({ client: 'copilot', scenario: 'create-bash-exit-status', steps: [WRITE, PASSING_SHELL, FAILING_SHELL, { text: 'The second failed.' }] }));

// OpenCode 1.18.33 (native binary, OpenAI chat completions through its bundled openai-compatible provider): what holdfast's
// plugin hands the hook for a refused write, a failing shell write put back, a clean edit, then session.idle.
it('opencode: a denied write, a failing shell write put back, a clean edit, then session.idle', () =>
  record({
    client: 'opencode',
    scenario: 'write-denied-shell-put-back',
    gate: true,
    steps: [
      { writeFile: { path: 'src/debug.ts', content: "console.log('debug');\n" } },
      { shell: "node -e \"require('fs').writeFileSync('src/x.ts', 'console.log(1);\\n')\"; exit 1" },
      { editFile: { path: 'src/greet.ts', oldText: '"hi"', newText: '"hello"' } },
      { text: 'Done.' },
    ],
  }));
