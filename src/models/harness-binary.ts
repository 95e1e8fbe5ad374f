import { homedir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from './probe-target.js';
import type { HarnessTarget } from './targets-config.js';

/** The program name of each known harness, as its npm package installs it. */
const PROGRAMS = { 'claude-code': 'claude', codex: 'codex' } as const;

/**
 * Where holdfast keeps agent harnesses it installed itself (`<cache>/<program>/node_modules/.bin/<program>`):
 * `HOLDFAST_AGENT_CACHE`, else `~/.cache/holdfast/agents`.
 */
export function agentCacheDir(env: NodeJS.ProcessEnv): string {
  const configured = env['HOLDFAST_AGENT_CACHE'];
  if (configured !== undefined && configured !== '') return configured;
  return join(env['XDG_CACHE_HOME'] ?? join(env['HOME'] ?? homedir(), '.cache'), 'holdfast', 'agents');
}

export interface HarnessBinary {
  /** Absolute path of the program, when it was found. */
  readonly path: string | undefined;
  /** For a person: where it was found, or everywhere it was looked for. */
  readonly detail: string;
}

/** The program a harness target runs: its `binary` (or command), else the harness on PATH, else the agent cache. */
export async function findHarnessBinary(target: HarnessTarget, env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<HarnessBinary> {
  const configured = target.provider === 'agent' ? target.command[0] : target.binary;
  if (target.provider === 'agent' || configured !== undefined) {
    const field = target.provider === 'agent' ? 'command' : 'binary';
    const path = configured === undefined ? undefined : await findExecutable(configured, env, cwd);
    return path !== undefined ? { path, detail: `found ${path}` } : { path, detail: `\`${configured ?? ''}\` is not on PATH (field "${field}")` };
  }
  const program = PROGRAMS[target.provider];
  const onPath = await findExecutable(program, env, cwd);
  if (onPath !== undefined) return { path: onPath, detail: `found ${onPath}` };
  const cached = join(agentCacheDir(env), program, 'node_modules', '.bin', program);
  const inCache = await findExecutable(cached, env, cwd);
  if (inCache !== undefined) return { path: inCache, detail: `found ${inCache} (agent cache)` };
  return { path: undefined, detail: `\`${program}\` is neither on PATH nor in the agent cache (${cached}); install it or set "binary"` };
}
