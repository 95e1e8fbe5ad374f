import { join } from 'node:path';
import { AGENT_CLIENTS, agentCacheRoot, agentClientFolder } from '../harnesses/agent-clients.js';
import { findProgram } from '@holdfast/gate';
import type { HarnessTarget } from './targets-config.js';

export interface HarnessBinary {
  /** Absolute path of the program, when it was found. */
  readonly path: string | undefined;
  /** For a person: where it was found, or everywhere it was looked for. */
  readonly detail: string;
}

/**
 * The program a harness target runs: its `binary` (or command), else the harness on PATH, else the
 * version holdfast's agent cache holds (`HOLDFAST_AGENT_CACHE`, see src/agents/agent-clients.ts).
 */
export async function findHarnessBinary(target: HarnessTarget, env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<HarnessBinary> {
  const configured = target.provider === 'agent' ? target.command[0] : target.binary;
  if (target.provider === 'agent' || configured !== undefined) {
    const field = target.provider === 'agent' ? 'command' : 'binary';
    const path = configured === undefined ? undefined : findProgram(configured, env, cwd);
    return path !== undefined ? { path, detail: `found ${path}` } : { path, detail: `\`${configured ?? ''}\` is not on PATH (field "${field}")` };
  }
  const program = target.provider === 'claude-code' ? 'claude' : 'codex';
  const onPath = findProgram(program, env, cwd);
  if (onPath !== undefined) return { path: onPath, detail: `found ${onPath}` };
  const spec = AGENT_CLIENTS[target.provider];
  const cached = join(agentClientFolder(spec, agentCacheRoot(env)), spec.bin);
  const inCache = findProgram(cached, env, cwd);
  if (inCache !== undefined) return { path: inCache, detail: `found ${inCache} (agent cache)` };
  return { path: undefined, detail: `\`${program}\` is neither on PATH nor in the agent cache (${cached}); install it or set "binary"` };
}
