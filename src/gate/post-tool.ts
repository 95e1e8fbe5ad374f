import { ALLOW } from './hook-answer.js';
import type { HookAnswer } from './hook-answer.js';
import type { HookEvent } from './hook-event.js';
import type { AgentHook, HookOptions } from './hook-options.js';

/**
 * PostToolUse: judges what a call really changed, after it ran. This minimal version lets every
 * call stand; the post-check (snapshot, diff, restore) replaces it.
 */
export async function answerPostToolUse(_agent: AgentHook, _event: HookEvent, _options: HookOptions): Promise<HookAnswer> {
  return ALLOW;
}
