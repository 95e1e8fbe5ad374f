import { CheckInputSchema, InputError } from '../contract/index.js';
import { safeParseJson } from '../contract/json.js';
import type { CheckInput } from '../contract/index.js';
import { valueAt } from './value-at.js';

export type SafeParseCheckInputResult = { ok: true; input: CheckInput } | { ok: false; error: InputError };

/** Reads the input of `holdfast check`: strict, since a person wrote it, with every refusal named. */
export function parseCheckInput(text: string, source: string): CheckInput {
  const parsed = safeParseCheckInput(text, source);
  if (!parsed.ok) throw parsed.error;
  return parsed.input;
}

export function safeParseCheckInput(text: string, source: string): SafeParseCheckInputResult {
  const json = safeParseJson(text);
  if (!json.ok) return refuse(`${source}: not JSON (${json.error}); give {"actions": [...], "existing": [...]}`);
  const data = json.value;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return refuse(`${source}: expected a JSON object with an "actions" list; give {"actions": [...], "existing": [...]}`);
  if (!('actions' in data)) return refuse(`${source}: "actions" is missing; give {"actions": [...], "existing": [...]}`);
  const result = CheckInputSchema.safeParse(data);
  if (result.success) return { ok: true, input: result.data };
  const messages = result.error.issues.slice(0, 10).map((issue) => {
    const [section, index, field] = issue.path;
    const value = valueAt(data, issue.path);
    if (section === 'actions' && typeof index === 'number') {
      if (field === 'type') {
        return value === undefined
          ? `${source}: action ${index} has no "type"; use write, delete, run or commit`
          : `${source}: action ${index} has unknown type ${JSON.stringify(value)}; use write, delete, run or commit`;
      }
      if (field === undefined) return `${source}: action ${index} is not an object; write {"type": "write", "path": "src/a.ts", "content": "..."}`;
      const got = value === undefined ? 'it is missing' : `got ${Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value}`;
      return `${source}: action ${index}, field ${String(field)}: expected a string, ${got}`;
    }
    if (section === 'existing') return `${source}: "existing" must be a list of path strings (${issue.message})`;
    if (section === 'actions') return `${source}: "actions" must be a list of actions`;
    return `${source}: ${issue.message}`;
  });
  return refuse(messages.join('\n'));
}

function refuse(message: string): SafeParseCheckInputResult {
  return { ok: false, error: new InputError('E_CHECK_INPUT', message) };
}
