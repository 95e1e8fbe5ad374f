import type { Action } from '../contract/index.js';

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
