import type { HookAnswer } from '../decide/index.js';
import type { ReadText } from '../io/index.js';
import type { ToolCall } from '../decide/index.js';
import type { HookEvent, PreToolUseEvent, SafeParse } from './hook-event.js';
import type { ShellOutcome } from './shell-outcome.js';

/** The agent CLIs the hook speaks to; each is one folder of this room (`claude-code/`, `codex/`, …). */
export type AgentHook = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'opencode' | 'copilot-cli';

/** The three steps of the agent-free flow: judge a call before it runs, after it ran, and the end of the turn. */
type HookStep = 'before-call' | 'after-call' | 'turn-end';

/**
 * The before-call half of an agent's protocol (its `pre-tool-use.ts`): what a tool call will do,
 * and how a refusal is said.
 */
export interface BeforeCallProtocol {
  /** The tool call as holdfast actions, paths relative to `root`. Throws InputError on a malformed input. */
  readToolCall(event: PreToolUseEvent, root: string, readText: ReadText): ToolCall;
  /** A refusal of the call, with the reason the model reads. */
  deny(reason: string): HookAnswer;
  /** The call goes ahead, and the model reads `message` (a rule at `enforcement: warn` it broke). */
  warn(message: string): HookAnswer;
  /** The agent's shell tools: snapshotted before and judged after they run. */
  isShellTool(tool: string): boolean;
  /** A tool whose effect on files cannot be read from its input (an MCP server's, a new one): judged after it ran. */
  isOpaqueTool(tool: string): boolean;
}

/** The after-call half (its `post-tool-use.ts`): how the model is told what was put back, and how a shell call ended. */
export interface AfterCallProtocol {
  /** What the model reads after the call (`event` is the hook event's name: Claude Code answers its failure event differently). */
  tell(event: string, reason: string): HookAnswer;
  /** Whether the shell call failed, as far as the agent says (a test run counts only when it is known to have passed). */
  shellOutcome(event: HookEvent): ShellOutcome;
}

/** The end of the turn (its `stop.ts`). */
export interface TurnEndProtocol {
  /** Keeps the agent working: `reason` becomes its next instruction. */
  hold(reason: string): HookAnswer;
  /** Ends the turn (and the agent's session loop) with `message` for the person. */
  end(message: string): HookAnswer;
}

/**
 * One agent CLI, as the agent-free flow (run-hook.ts, post-tool.ts) sees it. Nothing in the flow
 * branches on an agent's name: what differs between agents is here, one file per event.
 */
export interface AgentAdapter extends BeforeCallProtocol, AfterCallProtocol, TurnEndProtocol {
  readonly name: AgentHook;
  /** As people write it (Claude Code, Codex, Gemini CLI), in messages. */
  readonly title: string;
  /** The flow step of each hook event name the gate installs; any other event passes. */
  readonly steps: Readonly<Record<string, HookStep>>;
  /** The step of an event that names none (Claude Code and Codex leave `hook_event_name` out of PreToolUse in old releases). */
  readonly unnamedStep: HookStep;
  /** The project root: the event's `cwd` follows `cd` in some agents, which name the root in a variable. */
  projectRoot(cwd: string, env: NodeJS.ProcessEnv): string;
  /**
   * The event in the field names the flow reads (Claude Code's: `hook_event_name`, `session_id`,
   * `tool_name`, `tool_input`), for an agent whose payloads name them otherwise (Copilot CLI's camelCase).
   */
  readPayload?(raw: Readonly<Record<string, unknown>>): SafeParse<HookEvent>;
}
