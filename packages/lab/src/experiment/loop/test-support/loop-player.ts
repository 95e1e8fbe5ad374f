import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ArmResult, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { ArmResultSchema } from '@holdfast/core/contract';
import { renderRulebook } from '@holdfast/core/rules';
import { createAnthropicAdapter, createOpenAiCompatibleAdapter } from '../../../models/index.js';
import { startFakeOpenAi, startFakeServer } from '../../../models/test-support/fake-openai-server.js';
import type { FakeScript, FakeServer, RecordedRequest } from '../../../models/test-support/fake-openai-server.js';
import { testRuntime } from '../../../models/test-support/test-runtime.js';
import { runLoopArm } from '../loop-arm.js';
import type { LoopArmOptions } from '../loop-arm.js';
import { loopTask } from '../loop-prompt.js';
import { createLoopWorkspaces } from '../loop-workspace.js';
import type { LoopWorkspaces } from '../loop-workspace.js';
import { LOOP_RULEBOOK, LOOP_TASK, anthropicAgent, openAiAgent } from './scripted-agent.js';
import type { AgentPolicy } from './scripted-agent.js';

export type LoopProvider = 'openai' | 'anthropic';

export interface LoopPlayerSetup {
  /** The rulebook every arm is played under (default: the loop tests' rulebook). */
  readonly rulebook?: Rulebook;
  /** The task every arm works on (default: the loop tests' task). */
  readonly task?: TaskInfo;
  /** What each arm's work tree may hold, in bytes (the workspaces' default when absent). */
  readonly maxBytes?: number;
  /** The adapter's cap on one model answer (the adapter's default when absent). */
  readonly maxReplyBytes?: number;
}

interface PlayOptions extends Partial<LoopArmOptions> {
  readonly provider?: LoopProvider;
  /** What the fake server answers instead of the policy's scripted agent. */
  readonly script?: FakeScript;
}

export interface LoopPlayer {
  readonly agentsMd: string;
  /** The task as the arm is given it, AGENTS.md included. */
  readonly task: LoopArmOptions['task'];
  /** The folder the run's repositories are made in, made for this test file and removed after it. */
  parentDir(): string;
  /** One loop arm against a fake provider on loopback that plays `policy`; the result is checked against its schema. */
  play(arm: 'told' | 'held', policy: AgentPolicy, options?: PlayOptions): Promise<{ result: ArmResult; requests: readonly RecordedRequest[] }>;
}

/**
 * The set-up every loop-arm test file shares: the workspaces (made before the file's tests, removed
 * after), a fake OpenAI-compatible or Anthropic server per arm (closed after each test), and the
 * adapter that talks to it. Call it at the top of a test file: it registers the file's hooks.
 */
export function loopPlayer(setup: LoopPlayerSetup = {}): LoopPlayer {
  const rulebook = setup.rulebook ?? LOOP_RULEBOOK;
  const agentsMd = renderRulebook(rulebook);
  const task = loopTask(setup.task ?? LOOP_TASK, agentsMd);
  const servers: FakeServer[] = [];
  let parent: string | undefined;
  let workspaces: LoopWorkspaces | undefined;

  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'holdfast-loop-test-'));
    workspaces = createLoopWorkspaces({
      rulebook,
      isolation: { kind: 'none', detail: 'tests run commands unisolated' },
      parentDir: parent,
      ...(setup.maxBytes !== undefined ? { maxBytes: setup.maxBytes } : {}),
    });
  });
  afterAll(async () => {
    await workspaces?.dispose();
    if (parent !== undefined) rmSync(parent, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  async function play(arm: 'told' | 'held', policy: AgentPolicy, options: PlayOptions = {}) {
    const provider = options.provider ?? 'openai';
    const script = options.script ?? (provider === 'openai' ? openAiAgent(policy) : anthropicAgent(policy));
    const server = provider === 'openai' ? await startFakeOpenAi({ script }) : await startFakeServer({ script });
    servers.push(server);
    const common = {
      baseUrl: server.baseUrl,
      runtime: testRuntime(),
      retry: { maxAttempts: 1 },
      ...(setup.maxReplyBytes !== undefined ? { maxReplyBytes: setup.maxReplyBytes } : {}),
    };
    const model =
      provider === 'openai'
        ? createOpenAiCompatibleAdapter({ id: 'fake', model: 'fake-model', apiKey: 'sk-test-0123456789abcdef', ...common })
        : createAnthropicAdapter({ id: 'claude', model: 'claude-test', apiKey: 'sk-ant-test-0123456789', ...common });
    const { workspace, release } = await workspaces!.open(options.task ?? task, `${provider}-${arm}`);
    try {
      const { provider: _provider, script: _script, ...armOptions } = options;
      const result = await runLoopArm({
        arm,
        task,
        agentsMd,
        rulebook,
        model: { converse: model.converse! },
        workspace,
        maxTokens: 4_000,
        temperature: 0,
        ...armOptions,
      });
      if (result === undefined) throw new Error('the arm was cancelled');
      expect(ArmResultSchema.parse(JSON.parse(JSON.stringify(result)))).toEqual(result);
      return { result, requests: server.requests };
    } finally {
      release();
    }
  }

  return { agentsMd, task, parentDir: () => parent!, play };
}
