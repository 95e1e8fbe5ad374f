import type { GateAgent } from '../decide/index.js';

type Agent = Exclude<GateAgent, 'git'>;

/**
 * Claude Code's tools that change no file, by every name a hook matcher is tested against (a tool's
 * old names stay aliases: `Task` for `Agent`, `KillShell` for `TaskStop`). The hooks never see them,
 * so they cost nothing. A subagent (`Agent`) is not watched as a whole: its own tool calls are
 * hooked one by one. Every tool not named here, and not a file-editing tool judged before it runs,
 * is judged after the fact like a shell command: an MCP server's tools, and any tool a later release adds.
 */
export const CLAUDE_READ_ONLY_TOOLS: readonly string[] = [
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'Agent',
  'Task',
  'TaskOutput',
  'BashOutput',
  'BashOutputTool',
  'AgentOutput',
  'AgentOutputTool',
  'TaskStop',
  'KillShell',
  'KillBash',
  'ListMcpResourcesTool',
  'ListMcpResources',
  'ReadMcpResourceTool',
  'ReadMcpResource',
  'ReadMcpResourceDirTool',
  'ReadMcpResourceDir',
  'ToolSearch',
  'Skill',
  'SlashCommand',
  'ListAgents',
  'ListPeers',
  'SendUserMessage',
  'Brief',
  'LSP',
];

/** Claude Code's file-editing tools: judged before they run, from their input. */
export const CLAUDE_FILE_TOOLS: readonly string[] = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/**
 * Codex's tools that change no file. Codex's matchers are Rust regexes (no look-ahead), so its hooks
 * name the tools to watch instead: the shells, apply_patch and every MCP tool (`mcp__server__tool`).
 */
export const CODEX_READ_ONLY_TOOLS: readonly string[] = [
  'update_plan',
  'view_image',
  'web_search',
  'list_mcp_resources',
  'read_mcp_resource',
  'list_mcp_resource_templates',
];

const CODEX_KNOWN_TOOLS = new Set(['apply_patch', 'Bash', 'shell', 'exec_command', 'write_stdin', 'local_shell', 'unified_exec']);

/**
 * A matcher (a JavaScript regex, as Claude Code reads any matcher that is not a plain `|` list) for
 * every tool but those named: Claude Code tests it against the tool's name and each of its aliases.
 */
export function everyToolBut(names: readonly string[]): string {
  return `^(?!(?:${names.join('|')})$).*`;
}

/**
 * Whether a tool the gate cannot read from its input may change files: judged after it ran, against
 * a snapshot taken before (as a shell command whose effects are unknown). Shells are handled by the
 * shell analysis, file-editing tools before they run, read-only tools not at all.
 */
export function isOpaqueTool(agent: Agent, tool: string): boolean {
  if (agent === 'claude-code') return tool !== 'Bash' && !CLAUDE_FILE_TOOLS.includes(tool) && !CLAUDE_READ_ONLY_TOOLS.includes(tool);
  return !CODEX_KNOWN_TOOLS.has(tool) && !CODEX_READ_ONLY_TOOLS.includes(tool);
}

/** What the model and the audit log read for such a call. */
export function opaqueEffect(tool: string): string {
  return `\`${tool}\` is a tool whose effect on files cannot be known before it runs`;
}
