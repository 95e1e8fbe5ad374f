import type { HookAnswer } from '../../decide/index.js';
import type { TurnEndProtocol } from '../agent-adapter.js';
import { blockDecision } from '../turn-answers.js';

/**
 * Copilot CLI's agentStop: `decision: "block"` sends the reason back as the next user message; after
 * 8 blocks in a row it ends the turn anyway (1.0.72). It has no answer that stops the session with a
 * message, so the gate's end of the turn lets it stop and says why on stderr, which Copilot CLI logs.
 */
function end(message: string): HookAnswer {
  return { stdout: '', stderr: `${message}\n`, exitCode: 0 };
}

export const COPILOT_TURN_END: TurnEndProtocol = { hold: blockDecision, end };
