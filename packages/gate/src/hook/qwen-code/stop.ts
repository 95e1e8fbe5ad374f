import type { TurnEndProtocol } from '../agent-adapter.js';
import { blockDecision, stopSession } from '../turn-answers.js';

/**
 * Qwen Code's Stop: `decision: "block"` sends the reason back as the next prompt; after
 * `stopHookBlockingCap` blocks in a row (settings, or QWEN_CODE_STOP_HOOK_BLOCK_CAP) it ends the turn anyway.
 */
export const QWEN_TURN_END: TurnEndProtocol = { hold: blockDecision, end: stopSession };
