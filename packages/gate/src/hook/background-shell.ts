import { resolve } from 'node:path';
import { readShellCommand } from '../shell/index.js';
import type { ReadText } from '../io/index.js';
import type { ToolCall } from '../decide/index.js';

/**
 * `run_shell_command` of Gemini CLI and its fork Qwen Code: the command read in the folder it names
 * (relative to the project), and one that runs in the background (`is_background`) with effects the
 * check after the call must see refused as a bypass: it may still be writing when that check looks.
 */
export function readBackgroundableShell(
  command: string,
  directory: string,
  background: boolean,
  options: { readonly root: string; readonly readText: ReadText },
): Pick<ToolCall, 'actions' | 'bypasses' | 'unknownEffects'> {
  const { root, readText } = options;
  const reading = readShellCommand(command, { root, cwd: directory === '' ? root : resolve(root, directory), readText });
  if (!background || reading.unknownEffects.length === 0) return reading;
  const segment = command.trim().length <= 200 ? command.trim() : `${command.trim().slice(0, 199)}…`;
  const reason = `\`${segment}\` runs in the background with effects that can only be judged after it ends, and it may still be running (and writing) when the check after this call looks; run it in the foreground`;
  return { ...reading, bypasses: [...reading.bypasses, { segment, reason }] };
}
