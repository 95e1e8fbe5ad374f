import type { ToolSpec } from '../../models/index.js';

/** The tools a bare model gets in loop mode. Paths are relative to the repository root. */
const LOOP_TOOL_NAMES = ['read_file', 'list_files', 'write_file', 'edit_file', 'delete_file', 'run_command', 'commit'] as const;

const path = { type: 'string', description: 'Path relative to the repository root, with forward slashes, e.g. src/features/orders.ts.' };

function object(properties: Record<string, unknown>, required: readonly string[]): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * The same words for both arms: nothing here says whether calls are checked, so the held arm's
 * model is never told it is gated.
 */
export const LOOP_TOOLS: readonly ToolSpec[] = [
  { name: 'read_file', description: 'Read a file of the repository.', parameters: object({ path }, ['path']) },
  {
    name: 'list_files',
    description: 'List the files of the repository, or of one folder of it.',
    parameters: object({ path: { type: 'string', description: 'A folder relative to the repository root; the whole repository when absent.' } }, []),
  },
  {
    name: 'write_file',
    description: 'Create a file or replace its whole content.',
    parameters: object({ path, content: { type: 'string', description: 'The full new content of the file.' } }, ['path', 'content']),
  },
  {
    name: 'edit_file',
    description: 'Replace one exact occurrence of old_string in a file with new_string.',
    parameters: object(
      {
        path,
        old_string: { type: 'string', description: 'Text that occurs exactly once in the file.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
      },
      ['path', 'old_string', 'new_string'],
    ),
  },
  { name: 'delete_file', description: 'Delete a file.', parameters: object({ path }, ['path']) },
  {
    name: 'run_command',
    description: 'Run a command in the repository root, without a shell (no pipes, no &&), e.g. "npm test". Returns its exit code and output.',
    parameters: object({ command: { type: 'string', description: 'The command line.' } }, ['command']),
  },
  {
    name: 'commit',
    description: 'Commit every change in the repository with a message.',
    parameters: object({ message: { type: 'string', description: 'The commit message.' } }, ['message']),
  },
];

/** A tool call read into what it asks for, or why it cannot be read. */
export type LoopIntent =
  | { readonly tool: 'read_file'; readonly path: string }
  | { readonly tool: 'list_files'; readonly path: string | undefined }
  | { readonly tool: 'write_file'; readonly path: string; readonly content: string }
  | { readonly tool: 'edit_file'; readonly path: string; readonly oldString: string; readonly newString: string }
  | { readonly tool: 'delete_file'; readonly path: string }
  | { readonly tool: 'run_command'; readonly command: string }
  | { readonly tool: 'commit'; readonly message: string }
  | { readonly tool: 'invalid'; readonly reason: string };

function text(input: Readonly<Record<string, unknown>>, field: string, tool: string): string | { reason: string } {
  const value = input[field];
  return typeof value === 'string' ? value : { reason: `${tool} needs "${field}" as a string` };
}

/** Reads a call's name and input; anything unexpected is an `invalid` intent, answered to the model as an error. */
export function readIntent(name: string, input: Readonly<Record<string, unknown>> | undefined, inputError?: string): LoopIntent {
  if (input === undefined) return { tool: 'invalid', reason: `the arguments of ${name} could not be read: ${inputError ?? 'not a JSON object'}` };
  const fields = (tool: string, ...names: string[]): string[] | { reason: string } => {
    const values: string[] = [];
    for (const field of names) {
      const value = text(input, field, tool);
      if (typeof value !== 'string') return value;
      values.push(value);
    }
    return values;
  };
  const read = (names: string[], build: (values: string[]) => LoopIntent): LoopIntent => {
    const values = fields(name, ...names);
    return Array.isArray(values) ? build(values) : { tool: 'invalid', reason: values.reason };
  };
  switch (name) {
    case 'read_file':
      return read(['path'], ([path]) => ({ tool: 'read_file', path: path! }));
    case 'list_files':
      return { tool: 'list_files', path: typeof input['path'] === 'string' && input['path'] !== '' ? input['path'] : undefined };
    case 'write_file':
      return read(['path', 'content'], ([path, content]) => ({ tool: 'write_file', path: path!, content: content! }));
    case 'edit_file':
      return read(['path', 'old_string', 'new_string'], ([path, oldString, newString]) => ({
        tool: 'edit_file',
        path: path!,
        oldString: oldString!,
        newString: newString!,
      }));
    case 'delete_file':
      return read(['path'], ([path]) => ({ tool: 'delete_file', path: path! }));
    case 'run_command':
      return read(['command'], ([command]) => ({ tool: 'run_command', command: command! }));
    case 'commit':
      return read(['message'], ([message]) => ({ tool: 'commit', message: message! }));
    default:
      return { tool: 'invalid', reason: `there is no tool named ${JSON.stringify(name)}; the tools are ${LOOP_TOOL_NAMES.join(', ')}` };
  }
}
