import type { TurnEndProtocol } from '../agent-adapter.js';
import { blockDecision, stopSession } from '../turn-answers.js';

/**
 * OpenCode's `session.idle` is an event a plugin hears after the session's loop has ended, not a hook
 * that can refuse the end: the gate judges the turn's end there (calls whose check never finished,
 * changes made between calls put back, modules without their test recorded in the audit), and
 * holdfast's plugin has no way to send the agent back. Tried with opencode-ai 1.18.33: a prompt sent
 * from the plugin at `session.idle` is never run by `opencode run`, which exits at that event. The
 * answers are the usual ones; the plugin reads none of them.
 */
export const OPENCODE_TURN_END: TurnEndProtocol = { hold: blockDecision, end: stopSession };
