/**
 * Gemini CLI: found in the agent cache (see clients.ts), its hooks in `.gemini/settings.json`, its
 * output read here. It plays no agent-mode target yet; the gate's end-to-end tests drive it.
 */
export { readGeminiResult } from './report.js';
