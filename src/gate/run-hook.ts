import { isAbsolute, resolve } from 'node:path';
import { appendAudit } from './audit.js';
import type { AuditEntry } from './audit.js';
import { readClaudeToolCall, safeParseClaudeEvent } from './claude-code.js';
import { readCodexToolCall, safeParseCodexEvent } from './codex.js';
import { ALLOW, BYPASS_HINT, BYPASS_VARIABLE, denyAnswer, internalErrorReason, reasonOf } from './hook-answer.js';
import type { HookAnswer } from './hook-answer.js';
import { judgeToolCall, projectOnDisk } from './judge.js';
import { loadRulebookCached } from './rules-engine.js';
import type { RulesEngine } from './rules-engine.js';
import { loadSessionState, saveSessionState } from './session-state.js';
import { describeAction } from '../reply/summarize.js';
import { readTextFromDisk } from './tool-call.js';
import type { ReadText, ToolCall } from './tool-call.js';

export type AgentHook = 'claude-code' | 'codex';

export interface HookOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  /** `--rulebook`; relative to the project root. The rules engine's default when absent. */
  readonly rulebookFile: string | undefined;
  readonly loadEngine: () => Promise<RulesEngine>;
  readonly readText?: ReadText;
}

function readToolCall(agent: AgentHook, input: string, env: NodeJS.ProcessEnv, readText: ReadText): ToolCall {
  if (agent === 'claude-code') {
    const parsed = safeParseClaudeEvent(input);
    if (!parsed.ok) throw parsed.error;
    // Hooks get the project root in CLAUDE_PROJECT_DIR; `cwd` moves when the agent changes directory.
    const root = env.CLAUDE_PROJECT_DIR !== undefined && env.CLAUDE_PROJECT_DIR !== '' ? env.CLAUDE_PROJECT_DIR : parsed.value.cwd;
    return readClaudeToolCall(parsed.value, readText, root);
  }
  const parsed = safeParseCodexEvent(input);
  if (!parsed.ok) throw parsed.error;
  return readCodexToolCall(parsed.value, readText);
}

function shortened(text: string, limit = 400): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function audit(call: ToolCall, now: Date, fields: Pick<AuditEntry, 'rule' | 'name' | 'decision' | 'detail'>): void {
  appendAudit(call.cwd, {
    time: now.toISOString(),
    agent: call.agent,
    session: call.session,
    tool: call.tool,
    action: shortened(call.actions.map(describeAction).join('; ')),
    ...fields,
  });
}

/**
 * Answers one PreToolUse event. Never throws: anything that goes wrong, from an unreadable event to
 * a bug, denies the call (a crashed hook would let it through) with a message that says so.
 */
export async function answerAgentHook(agent: AgentHook, input: string, options: HookOptions): Promise<HookAnswer> {
  const readText = options.readText ?? readTextFromDisk;
  let call: ToolCall | undefined;
  try {
    call = readToolCall(agent, input, options.env, readText);
    if (options.env[BYPASS_VARIABLE] === 'off') {
      if (call.actions.length > 0) audit(call, options.now(), { rule: null, decision: 'bypassed', detail: `${BYPASS_VARIABLE}=off: the gate let the call through unjudged.` });
      return ALLOW;
    }
    if (call.actions.length === 0 && call.bypasses.length === 0 && call.unknownEffects.length === 0) return ALLOW;
    const engine = await options.loadEngine();
    const file = options.rulebookFile === undefined || isAbsolute(options.rulebookFile) ? options.rulebookFile : resolve(call.cwd, options.rulebookFile);
    const rulebook = await loadRulebookCached(call.cwd, file, engine);
    const loaded = loadSessionState(call.cwd, call.session);
    const judgement = await judgeToolCall(call, {
      rulebook,
      checkActions: engine.checkActions,
      state: loaded.state,
      project: projectOnDisk(call.cwd),
      bypassHint: BYPASS_HINT,
    });
    const warning = loaded.warning === undefined ? '' : ` (${loaded.warning})`;
    if (judgement.decision === 'deny') {
      audit(call, options.now(), { rule: judgement.rule, name: judgement.name, decision: 'deny', detail: judgement.detail + warning });
      return denyAnswer(agent, reasonOf(judgement) + warning);
    }
    saveSessionState(call.cwd, call.session, judgement.next);
    audit(call, options.now(), { rule: null, decision: 'allow', detail: judgement.detail + warning });
    return ALLOW;
  } catch (error) {
    const reason = internalErrorReason(error);
    if (call !== undefined) {
      try {
        audit(call, options.now(), { rule: 'INTERNAL', name: 'ERROR', decision: 'deny', detail: reason });
      } catch {
        // The audit log is unwritable too; the refusal itself still goes out.
      }
    }
    return denyAnswer(agent, reason);
  }
}
