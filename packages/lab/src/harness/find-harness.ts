import { execFile } from 'node:child_process';
import { basename, join } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { findProgram } from '@holdfast/gate';
import type { HarnessTarget } from '../models/index.js';
import { agentCacheRoot, agentClientFolder } from './clients.js';
import type { AgentHarness } from './harness.js';
import { harnessOf } from './harnesses.js';

export interface HarnessBinary {
  /** Absolute path of the program, when it was found. */
  readonly path: string | undefined;
  /** For a person: where it was found, or everywhere it was looked for. */
  readonly detail: string;
}

/**
 * The program a harness target runs: its `binary` (or command), else the harness on PATH, else the
 * version holdfast's agent cache holds (`HOLDFAST_AGENT_CACHE`, see clients.ts).
 */
export async function findHarnessBinary(target: HarnessTarget, env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<HarnessBinary> {
  const configured = target.provider === 'agent' ? target.command[0] : target.binary;
  const harness = harnessOf(target.provider);
  if (configured !== undefined || harness.program === undefined || harness.client === undefined) {
    const field = target.provider === 'agent' ? 'command' : 'binary';
    const path = configured === undefined ? undefined : findProgram(configured, env, cwd);
    return path !== undefined ? { path, detail: `found ${path}` } : { path, detail: `\`${configured ?? ''}\` is not on PATH (field "${field}")` };
  }
  const onPath = findProgram(harness.program, env, cwd);
  if (onPath !== undefined) return { path: onPath, detail: `found ${onPath}` };
  const cached = join(agentClientFolder(harness.client, agentCacheRoot(env)), harness.client.bin);
  const inCache = findProgram(cached, env, cwd);
  if (inCache !== undefined) return { path: inCache, detail: `found ${inCache} (agent cache)` };
  return { path: undefined, detail: `\`${harness.program}\` is neither on PATH nor in the agent cache (${cached}); install it or set "binary"` };
}

function versionOf(binary: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], { timeout: 30_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' } }, (error, stdout) => {
      // `2.1.197 (Claude Code)`, `codex-cli 0.171.0`: the version number is what the record needs.
      resolve(error === null ? /\d+\.\d+\.\d+[^\s)]*/.exec(stdout)?.[0] : undefined);
    });
  });
}

/** The harness's program, found once per run, and what it says its version is. */
export async function findHarness(target: HarnessTarget, env: NodeJS.ProcessEnv, cwd: string): Promise<AgentHarness> {
  if (target.keyEnv !== undefined && (env[target.keyEnv] === undefined || env[target.keyEnv] === '')) {
    throw new InputError(
      'E_MISSING_KEY',
      `target "${target.id}" needs a key in ${target.keyEnv}, which is not set. Put it in .env (see .env.example) or export it.`,
    );
  }
  const found = await findHarnessBinary(target, env, cwd);
  if (found.path === undefined) throw new InputError('E_HARNESS_MISSING', `target "${target.id}": ${found.detail}.`);
  const version = target.provider === 'agent' ? undefined : await versionOf(found.path);
  const label = target.provider === 'agent' ? `agent: ${basename(target.command[0] ?? found.path)}` : `${target.provider} ${version ?? basename(found.path)}`;
  return { target, binary: found.path, label, env };
}
