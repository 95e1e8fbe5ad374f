import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OPENCODE_FILE_TOOLS, OPENCODE_READ_ONLY_TOOLS } from '../hook/index.js';
import { HOOK_TIMEOUT_SECONDS } from './hook-command.js';

/** Where install writes holdfast's OpenCode plugin: OpenCode loads every `.opencode/plugin/*.js` of a project. */
export const OPENCODE_PLUGIN_FILE = join('.opencode', 'plugin', 'holdfast-gate.js');

const MARKER = '// : holdfast gate v1 (OpenCode plugin)';
const HOOK_LINE = /^const HOLDFAST_HOOK = ("(?:[^"\\]|\\.)*");$/m;

/**
 * holdfast's OpenCode plugin: a thin shim that hands each tool call to the hook `command` (the same
 * /bin/sh command line the other agents run, so it fails closed the same way) and does what the
 * answer says. OpenCode runs plugins in its own Bun; the shim imports nothing but node:child_process.
 * A refusal is a thrown Error (OpenCode does not run the call; the model reads the message); a
 * message is appended to the tool's output; a hook that cannot run refuses the call. Read-only tools
 * are not sent, and file tools are not sent after the call (judged in full before it).
 */
export function openCodePluginText(command: string): string {
  return `${MARKER}: written by \`holdfast install opencode\`; \`holdfast uninstall opencode\` removes it.
// Every tool call OpenCode makes goes to holdfast's hook first; a call the hook cannot judge is refused.
import { spawnSync } from 'node:child_process';

const HOLDFAST_HOOK = ${JSON.stringify(command)};
const READ_ONLY = new Set(${JSON.stringify(OPENCODE_READ_ONLY_TOOLS)});
const FILE_TOOLS = new Set(${JSON.stringify(OPENCODE_FILE_TOOLS)});

// The hook runs in the project OpenCode names (\`directory\`): it finds holdfast, and judges, from there.
function ask(payload) {
  const run = spawnSync('/bin/sh', ['-c', HOLDFAST_HOOK], { cwd: payload.cwd, input: JSON.stringify(payload), encoding: 'utf8', timeout: ${HOOK_TIMEOUT_SECONDS * 1000}, maxBuffer: 16777216 });
  if (run.error !== undefined || run.status !== 0) {
    const said = typeof run.stderr === 'string' ? run.stderr.trim() : '';
    // The exit status when the hook ran: one that stops without reading the event also makes writing it fail (EPIPE).
    const why = typeof run.status === 'number' ? \`exit \${run.status}\` : run.error !== undefined ? run.error.message : \`signal \${run.signal}\`;
    return { refused: said !== '' ? said : \`holdfast gate: the hook did not answer (\${why}), so this call is refused. Run \\\`holdfast doctor\\\` in the project to see why.\` };
  }
  const text = run.stdout.trim();
  if (text === '') return {};
  try {
    const answer = JSON.parse(text);
    if (answer.decision === 'deny') return { refused: String(answer.reason) };
    return typeof answer.message === 'string' ? { message: answer.message } : {};
  } catch {
    return { refused: 'holdfast gate: the hook answered something that is not JSON, so this call is refused. Run \`holdfast doctor\` in the project to see why.' };
  }
}

export const HoldfastGate = async ({ directory }) => {
  const told = new Map();
  return {
    'tool.execute.before': async (input, output) => {
      if (READ_ONLY.has(input.tool)) return;
      const answer = ask({ hook_event_name: 'tool.execute.before', session_id: input.sessionID, cwd: directory, tool_name: input.tool, tool_input: output.args ?? {}, tool_use_id: input.callID });
      if (answer.refused !== undefined) throw new Error(answer.refused);
      if (answer.message !== undefined) told.set(input.callID, answer.message);
    },
    'tool.execute.after': async (input, output) => {
      const messages = [told.get(input.callID)];
      told.delete(input.callID);
      if (!READ_ONLY.has(input.tool) && !FILE_TOOLS.has(input.tool)) {
        const exit = output?.metadata?.exit;
        const answer = ask({ hook_event_name: 'tool.execute.after', session_id: input.sessionID, cwd: directory, tool_name: input.tool, tool_input: input.args ?? {}, tool_use_id: input.callID, tool_response: { exit: typeof exit === 'number' ? exit : null } });
        messages.push(answer.message ?? answer.refused);
      }
      const said = messages.filter((message) => typeof message === 'string' && message !== '');
      if (said.length > 0) output.output = [typeof output.output === 'string' ? output.output : '', ...said].filter((part) => part !== '').join('\\n\\n');
    },
    event: async ({ event }) => {
      if (event.type !== 'session.idle') return;
      // The end of the turn is judged and recorded; OpenCode's loop has already ended, so nothing here can hold it.
      ask({ hook_event_name: 'session.idle', session_id: event.properties.sessionID, cwd: directory, stop_hook_active: false });
    },
  };
};
`;
}

/** The hook command line in a plugin file holdfast wrote; undefined for any other file. */
export function readOpenCodePluginCommand(text: string): string | undefined {
  if (!text.startsWith(MARKER)) return undefined;
  const match = HOOK_LINE.exec(text);
  if (match === null) return undefined;
  try {
    const command: unknown = JSON.parse(match[1] as string);
    return typeof command === 'string' ? command : undefined;
  } catch {
    return undefined;
  }
}

function read(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Whether the project holds holdfast's OpenCode plugin. */
export function hasOpenCodePlugin(root: string): boolean {
  const text = read(join(root, OPENCODE_PLUGIN_FILE));
  return text !== undefined && text.startsWith(MARKER);
}

export type PluginChange = 'created' | 'updated' | 'unchanged';

/** Writes the plugin file; a file of the same name that holdfast did not write is refused, never overwritten. */
export function writeOpenCodePlugin(root: string, command: string): PluginChange | 'foreign' {
  const path = join(root, OPENCODE_PLUGIN_FILE);
  const before = read(path);
  if (before !== undefined && !before.startsWith(MARKER)) return 'foreign';
  const after = openCodePluginText(command);
  if (before === after) return 'unchanged';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, after);
  return before === undefined ? 'created' : 'updated';
}

/** Removes the plugin, and `.opencode/plugin/` and `.opencode/` when they hold nothing else. */
export function removeOpenCodePlugin(root: string): 'removed' | 'absent' | 'foreign' {
  const path = join(root, OPENCODE_PLUGIN_FILE);
  const before = read(path);
  if (before === undefined) return 'absent';
  if (!before.startsWith(MARKER)) return 'foreign';
  rmSync(path);
  for (const folder of [dirname(path), dirname(dirname(path))]) {
    if (existsSync(folder) && readdirSync(folder).length === 0) rmdirSync(folder);
  }
  return 'removed';
}
