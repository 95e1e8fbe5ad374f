import type { TurnEndProtocol } from '../agent-adapter.js';
import { blockDecision, stopSession } from '../turn-answers.js';

/**
 * Gemini CLI's AfterAgent: `decision: "block"` (deny's alias) rejects the final answer and sends the
 * reason as the next prompt; `continue: false` stops the session.
 */
export const GEMINI_TURN_END: TurnEndProtocol = { hold: blockDecision, end: stopSession };
