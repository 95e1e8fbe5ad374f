import type { Action, ParsedReply } from '../contract/index.js';

/** One line for a person: what the reply amounted to and how it was read. */
export function summarizeParse(parsed: ParsedReply): string {
  switch (parsed.kind) {
    case 'actions': {
      const count = `${parsed.actions.length} action${parsed.actions.length === 1 ? '' : 's'}`;
      const list = parsed.actions.map(describeAction).join(', ');
      return `actions (${parsed.method}): ${count}${list === '' ? '' : `: ${list}`}`;
    }
    case 'declined':
      return `declined${parsed.method === undefined ? '' : ` (${parsed.method})`}: ${oneLine(parsed.reason)}`;
    case 'unparseable':
      return `unparseable: ${oneLine(parsed.reason)}`;
  }
}

/** An action in a few words: its type and its target, with the size of written content. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'write':
      return `write ${oneLine(action.path)} (${action.content.length} chars)`;
    case 'delete':
      return `delete ${oneLine(action.path)}`;
    case 'run':
      return `run ${oneLine(action.cmd)}`;
    case 'commit':
      return `commit ${JSON.stringify(oneLine(action.message))}`;
  }
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
