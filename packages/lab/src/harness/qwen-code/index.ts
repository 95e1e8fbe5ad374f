import type { HarnessDefinition } from '../harness.js';
import { AGENT_CLIENTS } from '../clients.js';
import { prepareQwenHome } from './home.js';
import { readQwenCodeResult } from './report.js';

export { readQwenCodeResult } from './report.js';

/**
 * Qwen Code (Gemini CLI's fork): `-p TICKET --yolo --auth-type openai --output-format json
 * --max-session-turns N` (every tool call approved: the hook is what refuses), any OpenAI-compatible
 * endpoint from OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL, its user settings written into the
 * run's HOME first. It runs a project's `.qwen/settings.json` hooks without a trust step, and reads
 * QWEN.md. Its package asks for Node 22 or newer: `#!/usr/bin/env node` runs the first node on the
 * target's PATH.
 */
export const QWEN_CODE: HarnessDefinition<'qwen-code'> = {
  provider: 'qwen-code',
  program: 'qwen',
  client: AGENT_CLIENTS['qwen-code'],
  tested:
    'end to end, offline: the real Qwen Code 0.24.4 on Node 24 on a scripted OpenAI chat-completions server on 127.0.0.1, told and held (test/e2e/agent-mode-clis.test.ts)',
  rulesFiles: ['QWEN.md'],
  hookSettings: '.qwen/settings.json',
  commandLine: (target, context) => ({
    args: [
      '-p',
      context.prompt,
      '--yolo',
      '--auth-type',
      'openai',
      '--output-format',
      'json',
      '--max-session-turns',
      String(target.maxTurns),
      ...(target.model !== undefined ? ['--model', target.model] : []),
      ...target.args,
    ],
  }),
  environment: () => ({ QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' }),
  prepare: (options) => prepareQwenHome({ env: options.env }),
  createReader: () => ({ push: () => undefined, turns: () => undefined, report: readQwenCodeResult }),
};
