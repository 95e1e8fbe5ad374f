import type { TurnEndProtocol } from '../agent-adapter.js';
import { blockDecision, stopSession } from '../turn-answers.js';

/** Claude Code's Stop: `decision: "block"` keeps it working; it ends the turn anyway after several blocks in a row. */
export const CLAUDE_CODE_TURN_END: TurnEndProtocol = { hold: blockDecision, end: stopSession };
