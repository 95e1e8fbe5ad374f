import type { ApiRunFile, ConfigResponse } from '@holdfast/core/browser';

export type RunMode = 'plan' | 'loop' | 'agent';
export type FormTarget = ConfigResponse['targets'][number];

export const MODES: readonly RunMode[] = ['plan', 'loop', 'agent'];

export const MODE_LABELS: Record<RunMode, string> = {
  plan: 'one reply per arm',
  loop: 'tool calls, turn after turn',
  agent: 'Claude Code, Codex or a CLI agent',
};

/** Defaults the run uses when a session setting is left empty (`holdfast run --turn-cap`, `--session-timeout`). */
export const SESSION_DEFAULTS: Record<Exclude<RunMode, 'plan'>, { turnCap: number; sessionSeconds: number }> = {
  loop: { turnCap: 30, sessionSeconds: 1200 },
  agent: { turnCap: 50, sessionSeconds: 900 },
};

/** Modes a target plays; a server that predates `modes` is read from the provider. */
export function modesOf(target: FormTarget): readonly RunMode[] {
  if (target.modes !== undefined) return target.modes;
  if (
    target.provider === 'claude-code' ||
    target.provider === 'codex' ||
    target.provider === 'gemini-cli' ||
    target.provider === 'qwen-code' ||
    target.provider === 'opencode' ||
    target.provider === 'copilot-cli' ||
    target.provider === 'agent'
  )
    return ['agent'];
  if (target.provider === 'command') return ['plan'];
  return ['plan', 'loop'];
}

/**
 * Whether a target can run in a mode. `problem` is the server's line, from the lab's `targetProblem`, which
 * `holdfast targets` prints too: the form and the terminal give the same first fix.
 */
export function canRun(target: FormTarget, mode: RunMode): boolean {
  return modesOf(target).includes(mode) && target.problem === undefined;
}

/** A saved run a replay can answer from: plan mode only (loop and agent sessions are opened, not replayed). */
export function replayable(file: ApiRunFile): boolean {
  return file.refused === undefined && (file.mode ?? 'plan') === 'plan' && file.status !== undefined;
}

export interface InitialForm {
  readonly mode: RunMode;
  readonly targets: readonly string[];
  /** No configured target can run in any mode: the replay is what the form offers first. */
  readonly replayFirst: boolean;
}

/**
 * What the form shows on first open: the first mode that has a target which can run, with that one
 * target chosen; when none can, the replay of the demo run comes first (it needs no key).
 */
export function initialForm(config: ConfigResponse): InitialForm {
  for (const mode of MODES) {
    const first = config.targets.find((target) => canRun(target, mode));
    if (first !== undefined) return { mode, targets: [first.id], replayFirst: false };
  }
  return { mode: 'plan', targets: [], replayFirst: true };
}

/**
 * The saved run a replay offers when the person has not picked one (or picked one that is gone): the
 * server's default run (the shipped demo) when it can be replayed, else the first that can. The run
 * list arrives after the configuration, so this is asked again each time the list changes.
 */
export function replayChoice(defaultRun: string | undefined, files: readonly ApiRunFile[], picked: string | undefined): string | undefined {
  const names = files.filter(replayable).map((file) => file.name);
  if (picked !== undefined && names.includes(picked)) return picked;
  return names.find((name) => name === defaultRun) ?? names[0];
}

/** Why the Run button is disabled, or undefined when it is not. */
export function runBlocker(config: ConfigResponse, mode: RunMode, chosen: readonly string[], tasks: number): string | undefined {
  if (tasks === 0) return 'Choose at least one task.';
  const playing = config.targets.filter((target) => modesOf(target).includes(mode));
  if (playing.length === 0) return `No configured target plays ${mode} mode; add one to holdfast.config.yaml.`;
  if (!playing.some((target) => canRun(target, mode))) return `No ${mode}-mode target can run here (each says why above). A replay needs no key.`;
  if (chosen.length === 0) return 'Choose a target.';
  return undefined;
}

/** Rounds a replay of `file` plays with these choices: its targets × the chosen tasks × the chosen reps. */
export function replayRounds(file: ApiRunFile | undefined, task: string, reps: number): number | undefined {
  if (file?.targets === undefined || file.tasks === undefined) return undefined;
  return file.targets.length * (task === 'all' ? file.tasks.length : 1) * reps;
}
