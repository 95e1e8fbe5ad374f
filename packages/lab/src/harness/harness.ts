import type { HarnessTarget } from '../models/index.js';
import type { AgentClientSpec } from './clients.js';
import type { HarnessReader } from './report.js';

export type HarnessProvider = HarnessTarget['provider'];

/** A harness target ready to play: its program found and named once per run (see findHarness). */
export interface AgentHarness {
  readonly target: HarnessTarget;
  readonly binary: string;
  /** `claude-code 2.1.197`, or the program's path for a generic agent. */
  readonly label: string;
  /** Where the variables the target names come from (process env plus `.env`). */
  readonly env: NodeJS.ProcessEnv;
}

/** Where one run of a harness happens and what it is asked. */
export interface InvocationContext {
  readonly binary: string;
  readonly prompt: string;
  /** The repository: the harness's working directory and project root. */
  readonly workDir: string;
  /** The run's own HOME: no host settings, credentials or session history reach the harness. */
  readonly homeDir: string;
  /** Where the passed-through variables are read (process env plus `.env`). */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Everything holdfast knows about one harness, in its own folder: how it is found (its program on
 * PATH, its pinned package in the agent cache), started (its command line and the variables only it
 * needs, what must be set up in its HOME first), where it reads the project's rules and keeps its
 * hook settings, and how its output is read. Confinement is the same for every harness
 * (confinement.ts, on the gate's ConfinementPolicy).
 */
export interface HarnessDefinition<P extends HarnessProvider = HarnessProvider> {
  readonly provider: P;
  /** The program looked for on PATH; a generic agent names its own (`command`). */
  readonly program?: string;
  /** The pinned package the agent cache holds (see clients.ts); a generic agent has none. */
  readonly client?: AgentClientSpec;
  /** The rule files the harness loads at start, the one it reads first first. */
  readonly rulesFiles: readonly string[];
  /** How holdfast's own tests drive it, for `holdfast targets`: end to end offline, or only its hook contract. */
  readonly tested?: string;
  /** The project file its hooks are configured in (holdfast install writes it); a generic agent has no hooks. */
  readonly hookSettings?: string;
  /** The command line after the program. */
  commandLine(target: Extract<HarnessTarget, { provider: P }>, context: InvocationContext): { args: string[]; stdin?: string };
  /** Variables only this harness needs, under the run's HOME. */
  environment?(homeDir: string): Record<string, string>;
  /** What must be in place in its HOME before it starts (Codex's config and hook trust). */
  prepare?(options: {
    readonly bin: string;
    readonly workDir: string;
    readonly env: Record<string, string>;
    readonly target: Extract<HarnessTarget, { provider: P }>;
  }): Promise<void>;
  createReader(): HarnessReader;
}
