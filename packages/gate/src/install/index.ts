// What leaves this room: the names other rooms of the gate, and its package index, import.
export { readCodexView, trustHoldfastHooks } from './codex-hooks.js';
export type { CodexView } from './codex-hooks.js';
export { COLLECT_STEP, rulebookToFlowSpec } from './flowspec.js';
export { HOOK_TIMEOUT_SECONDS, deadlineMs } from './hook-command.js';
export { installGate } from './install.js';
export type { InstallChange } from './install.js';
