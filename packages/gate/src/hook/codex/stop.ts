import type { TurnEndProtocol } from '../agent-adapter.js';
import { blockDecision, stopSession } from '../turn-answers.js';

/** Codex's Stop reads the same JSON as Claude Code's. */
export const CODEX_TURN_END: TurnEndProtocol = { hold: blockDecision, end: stopSession };
