import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../models/index.js';
import type { GenerateRequest, GenerateResult, ModelAdapter } from '../models/index.js';
import { harnessOf, runHarness } from '../harness/index.js';
import type { AgentHarness } from '../harness/index.js';

export interface HarnessResponderOptions {
  readonly harness: AgentHarness;
  /** Per fixture; the harness's own timeout (`timeoutMs` of the target) when absent. */
  readonly timeoutMs?: number;
  /** Where the throwaway folders go; the system temp folder by default. */
  readonly tmpRoot?: string;
  /** Keep each fixture's folder (for inspection); removed by default. */
  readonly keep?: boolean;
}

const OUTPUT_CAP_BYTES = 8 * 1024 * 1024;

function textOf(request: GenerateRequest, role: 'system' | 'user'): string {
  return request.messages
    .filter((message) => message.role === role)
    .map((message) => message.content)
    .join('\n\n');
}

/**
 * A pressure target that is a real agent harness (Claude Code, Codex, a CLI agent), as ADR-0024's
 * live half runs it: each fixture in a fresh, empty project with a fresh HOME (no session, memory
 * or settings carried from one fixture to the next), the system prompt written as the agent file
 * the harness loads (`CLAUDE.md`, `AGENTS.md`), the fixture's prompt as the headless task, and the
 * harness's final message as the reply. A harness that fails or says nothing is a provider error:
 * recorded as `error`, never a pass.
 */
export function createHarnessResponder(options: HarnessResponderOptions): ModelAdapter {
  const { target } = options.harness;
  return {
    target: { id: target.id, provider: target.provider, ...(target.model === undefined ? {} : { model: target.model }) },
    async generate(request) {
      const root = await mkdtemp(join(options.tmpRoot ?? tmpdir(), 'holdfast-pressure-'));
      try {
        return await answer(options, request, root);
      } finally {
        if (options.keep !== true) await rm(root, { recursive: true, force: true });
      }
    },
  };
}

async function answer(options: HarnessResponderOptions, request: GenerateRequest, root: string): Promise<GenerateResult> {
  const { harness } = options;
  const { target } = harness;
  const workDir = join(root, 'project');
  const homeDir = join(root, 'home');
  await Promise.all([mkdir(workDir, { recursive: true }), mkdir(join(homeDir, 'tmp'), { recursive: true })]);
  const system = textOf(request, 'system');
  // The agent file is the first rule file the harness loads at start (CLAUDE.md, AGENTS.md).
  if (system !== '') await writeFile(join(workDir, harnessOf(target.provider).rulesFiles[0]!), `${system}\n`, 'utf8');
  const { exit, report } = await runHarness({
    harness,
    prompt: textOf(request, 'user'),
    workDir,
    homeDir,
    timeoutMs: options.timeoutMs ?? target.timeoutMs,
    outputCapBytes: OUTPUT_CAP_BYTES,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  const why = exit.spawnError ?? exit.stoppedBecause ?? (exit.exitCode !== undefined && exit.exitCode !== 0 ? `it exited with ${exit.exitCode}` : undefined);
  // A generic agent's answer is what it printed.
  const text = report.finalMessage ?? (target.provider === 'agent' ? exit.stdout.trim() : '');
  if (why !== undefined || text.trim() === '') {
    const stderr = exit.stderr.text.trim().split('\n').slice(-3).join(' ');
    throw new ProviderError(
      'E_HARNESS',
      `${harness.label}: ${why ?? 'it gave no final message'}${report.ending === undefined ? '' : ` (${report.ending})`}${stderr === '' ? '' : `: ${stderr}`}`,
      { retryable: false },
    );
  }
  return {
    text,
    usage: {
      ...(report.inputTokens === undefined ? {} : { inputTokens: report.inputTokens }),
      ...(report.outputTokens === undefined ? {} : { outputTokens: report.outputTokens }),
    },
    latencyMs: exit.durationMs,
    attempts: 1,
  };
}
