import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Action } from '@holdfast/core/contract';
import { safeParseClaudeEvent } from './claude-code/pre-tool-use.js';
import { claudeShellOutcome } from './claude-code/post-tool-use.js';
import { safeParseCodexEvent } from './codex/pre-tool-use.js';
import { codexShellOutcome } from './codex/post-tool-use.js';
import { AGENT_ADAPTERS } from './agents.js';
import { safeParseHookEvent } from './hook-event.js';
import type { ShellOutcome } from './shell-outcome.js';
import type { ReadText } from '../io/project-files.js';
import type { ToolCall } from '../decide/tool-call.js';

/**
 * The hook payloads the real Claude Code 2.1.197 and Codex 0.171.0 sent during recorded runs
 * (fixtures/traffic, see its README), read by the gate's parsers byte for byte.
 */
const TRAFFIC = fileURLToPath(new URL('../../../../fixtures/traffic', import.meta.url));

const BEFORE_EDIT = 'export const answer = 41;\n';
const AFTER_EDIT = 'export const answer = 42;\n';
const CONSOLE_LOG = "console.log('debug');\n";

type Expected = { readonly actions: Action[] } | { readonly shellMentions: string };
const shellCommand: Expected = { shellMentions: 'notes.txt' };
const passingCommand: Expected = { shellMentions: '3 passed' };
const failingCommand: Expected = { shellMentions: '1 failed' };
const writesAnswer: Expected = { actions: [{ type: 'write', path: 'src/answer.ts', content: BEFORE_EDIT }] };
const editsAnswer: Expected = { actions: [{ type: 'write', path: 'src/answer.ts', content: AFTER_EDIT }] };
const writesConsoleLog: Expected = { actions: [{ type: 'write', path: 'src/debug.test.ts', content: CONSOLE_LOG }] };

/** What each recorded scenario's tool calls do, in the order the hooks saw them (Pre and Post alike). */
type Scenario = {
  client: 'claude-code' | 'codex';
  calls: Expected[];
  /** Each tool event's name, when not PreToolUse and PostToolUse in turn. */
  events?: string[];
  /** How each shell call ended (by its PostToolUse event's index among the tool events), as shellOutcome reads it. */
  outcomes?: Record<number, ShellOutcome>;
};
const exitStatus: Pick<Scenario, 'calls' | 'outcomes'> = {
  calls: [passingCommand, passingCommand, failingCommand, failingCommand],
  outcomes: { 1: { failed: false }, 3: { failed: true, ending: 'exit code 3' } },
};

const SCENARIOS: Record<string, Scenario> = {
  'claude-code-2.1.197/bash-write-edit-allowed': {
    client: 'claude-code',
    calls: [shellCommand, shellCommand, writesAnswer, writesAnswer, editsAnswer, editsAnswer],
  },
  'claude-code-2.1.197/write-denied-reason-reaches-model': { client: 'claude-code', calls: [writesConsoleLog] },
  'codex-0.171.0/exec-command-apply-patch-allowed': {
    client: 'codex',
    calls: [shellCommand, shellCommand, writesAnswer, writesAnswer, editsAnswer, editsAnswer],
  },
  'codex-0.171.0/apply-patch-denied-reason-reaches-model': { client: 'codex', calls: [writesConsoleLog] },
  'claude-code-2.1.197/bash-exit-status': { client: 'claude-code', ...exitStatus, events: ['PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolUseFailure'] },
  'codex-0.171.0/exec-command-exit-status': { client: 'codex', ...exitStatus },
};

function payloads(scenario: string): { name: string; text: string }[] {
  const folder = join(TRAFFIC, scenario, 'hooks');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));
}

/** The file the edit changes holds what the earlier Write/Add put there, as it did during the run. */
function diskAt(cwd: string, call: number): ReadText {
  return (path) => (path === join(cwd, 'src/answer.ts') && call >= 4 ? BEFORE_EDIT : undefined);
}

describe('recorded hook payloads of the real clients', () => {
  it.each(Object.entries(SCENARIOS).filter(([, scenario]) => scenario.outcomes !== undefined))(
    '%s: tells how each shell call ended, from the event (Claude Code) or the session log as it stood (Codex)',
    (scenario, { client, outcomes }) => {
      const toolEvents = payloads(scenario).filter(({ text }) => !text.includes('"hook_event_name":"Stop"'));
      for (const [index, expected] of Object.entries(outcomes ?? {})) {
        const event = toolEvents[Number(index)];
        if (event === undefined) throw new Error(`${scenario}: no tool event ${index}`);
        const parsed = safeParseHookEvent(event.text, client);
        if (!parsed.ok) throw new Error(`${scenario}/${event.name}: ${parsed.error.message}`);
        // The log as the hook could read it then, saved next to the payload by the recorder.
        const transcript = join(TRAFFIC, scenario, 'hooks', event.name.replace(/\.json$/, '.transcript.jsonl'));
        expect(
          client === 'codex' ? codexShellOutcome(parsed.value, () => readFileSync(transcript, 'utf8')) : claudeShellOutcome(parsed.value),
          event.name,
        ).toEqual(expected);
      }
    },
  );

  it('cover every recorded scenario', () => {
    const recorded = readdirSync(TRAFFIC, { withFileTypes: true })
      // Gemini CLI's, Qwen Code's, OpenCode's and Copilot CLI's recordings are read by their adapters' own tests (gemini-cli/, qwen-code/, opencode/, copilot-cli/).
      .filter((entry) => entry.isDirectory() && !/^(?:gemini-cli|qwen-code|opencode|copilot)-/.test(entry.name))
      .flatMap((client) => readdirSync(join(TRAFFIC, client.name)).map((scenario) => `${client.name}/${scenario}`));
    expect(recorded.sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  describe.each(Object.entries(SCENARIOS))('%s', (scenario, { client, calls, events: eventNames }) => {
    const events = payloads(scenario).map(({ name, text }) => ({ name, text, json: JSON.parse(text) as Record<string, unknown> }));
    const toolEvents = events.filter((event) => event.json.hook_event_name !== 'Stop');

    it('the parser accepts every PreToolUse and PostToolUse payload and reads the tool call right', () => {
      expect(toolEvents.map((event) => event.json.hook_event_name)).toEqual(
        eventNames ?? calls.map((_, index) => (calls.length === 1 || index % 2 === 0 ? 'PreToolUse' : 'PostToolUse')),
      );
      toolEvents.forEach((event, index) => {
        const parsed = client === 'claude-code' ? safeParseClaudeEvent(event.text) : safeParseCodexEvent(event.text);
        if (!parsed.ok) throw new Error(`${scenario}/${event.name}: ${parsed.error.message}`);
        const readText = diskAt(parsed.value.cwd, index);
        const call: ToolCall = AGENT_ADAPTERS[client].readToolCall(parsed.value, parsed.value.cwd, readText);
        expect(call.session, event.name).toBe(event.json.session_id);
        expect(call.cwd, event.name).toBe(event.json.cwd);
        const expected = calls[index];
        if (expected === undefined) throw new Error(`${scenario}: no expectation for ${event.name}`);
        if ('actions' in expected) expect(call.actions, event.name).toEqual(expected.actions);
        else expect(JSON.stringify(call.actions), event.name).toContain(expected.shellMentions);
      });
    });

    it('ends with one Stop carrying the same session and working directory', () => {
      const stops = events.filter((event) => event.json.hook_event_name === 'Stop');
      expect(stops).toHaveLength(1);
      expect(stops[0]?.json).toMatchObject({ session_id: toolEvents[0]?.json.session_id, cwd: toolEvents[0]?.json.cwd, stop_hook_active: false });
    });
  });
});
