import type { TargetConfig } from './targets-config.js';

/** The modes a target can play: a model plays plan (and loop with native tool calling), a harness plays agent only. */
export type TargetMode = 'plan' | 'loop' | 'agent';

export function targetModes(target: TargetConfig): TargetMode[] {
  switch (target.provider) {
    case 'openai-compatible':
    case 'anthropic':
      return ['plan', 'loop'];
    case 'command':
      return ['plan'];
    case 'claude-code':
    case 'codex':
    case 'gemini-cli':
    case 'qwen-code':
    case 'opencode':
    case 'copilot-cli':
    case 'agent':
      return ['agent'];
  }
}
