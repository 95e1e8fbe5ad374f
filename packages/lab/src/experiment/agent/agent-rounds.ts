import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Arm, ArmResult, Rulebook, TaskInfo } from '@holdfast/core/contract';
import type { AgentHarness } from '../../harness/index.js';
import { buildBaseRepo, defaultSandboxParent, resolveIsolation } from '../../sandbox/index.js';
import type { BaseRepo, Isolation, IsolationRequest } from '../../sandbox/index.js';
import { runAgentArm } from './run-agent-arm.js';

/** `isolation`: how the harness and the task check are confined; detected (bubblewrap where it works) when absent. */
export interface AgentRoundsOptions extends IsolationRequest {
  readonly rulebook: Rulebook;
  /** Where the run's repositories are made (default: the temp folder, on disk). */
  readonly parentDir?: string;
  /** Keep each arm's repository (and the harness's HOME) under this folder. */
  readonly keepDir?: string;
  /** What each arm's work tree may hold (`--sandbox-max-bytes`); past it the harness is stopped and the arm is over-cap. */
  readonly maxBytes?: number;
  /** How long the repository's own `npm test` may take at the end of an arm. */
  readonly taskCheckTimeoutMs?: number;
}

interface AgentArmRequest {
  readonly roundId: string;
  readonly task: TaskInfo;
  readonly arm: Arm;
  readonly harness: AgentHarness;
  readonly maxTurns: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface AgentRounds {
  readonly root: string;
  readonly isolation: Isolation;
  run(request: AgentArmRequest): Promise<ArmResult>;
  dispose(): Promise<void>;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}

/** The agent arms of one run: one base repository per task, one fresh repository per arm. */
export async function createAgentRounds(options: AgentRoundsOptions): Promise<AgentRounds> {
  // A harness runs model-written commands: no isolation (and no say-so), no run.
  const isolation = await resolveIsolation(options);
  const parent = options.parentDir ?? defaultSandboxParent();
  mkdirSync(parent, { recursive: true });
  const root = realpathSync(mkdtempSync(join(parent, 'holdfast-agent-rounds-')));
  const bases = new Map<string, Promise<BaseRepo>>();
  let counter = 0;
  const baseFor = (task: TaskInfo) => {
    let base = bases.get(task.id);
    if (base === undefined) {
      base = buildBaseRepo(join(root, 'bases', safeName(task.id)), task);
      bases.set(task.id, base);
    }
    return base;
  };
  return {
    root,
    isolation,
    async run(request) {
      counter += 1;
      const { result } = await runAgentArm({
        harness: request.harness,
        task: request.task,
        base: await baseFor(request.task),
        arm: request.arm,
        rulebook: options.rulebook,
        dir: join(root, 'arms', `${counter}-${safeName(request.roundId)}-${request.arm}`),
        isolation,
        taskCheckTimeoutMs: options.taskCheckTimeoutMs ?? (options.rulebook.sandbox?.timeoutSeconds ?? 60) * 1000,
        maxTurns: request.maxTurns,
        timeoutMs: request.timeoutMs,
        ...(options.keepDir !== undefined ? { keepDir: join(options.keepDir, safeName(request.roundId)) } : {}),
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
        ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      });
      return result;
    },
    async dispose() {
      await Promise.allSettled([...bases.values()]);
      await rm(root, { recursive: true, force: true, maxRetries: 2 });
    },
  };
}
