import type { GateFinding } from './tamper.js';

/** What the hook process prints and how it exits; the CLI command only writes it out. */
export interface HookAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export const ALLOW: HookAnswer = { stdout: '', stderr: '', exitCode: 0 };

/** Every broken rule of a call in one message: one line each, so the model can fix them all in one round. */
export function reasonOf(failures: readonly GateFinding[], notes: readonly string[] = []): string {
  const extra = notes
    .filter((note) => note !== '')
    .map((note) => ` ${note}`)
    .join('');
  if (failures.length === 1) return `holdfast: ${(failures[0] as GateFinding).detail}${extra}`;
  const lines = [`holdfast refused this call; it breaks ${failures.length} rules, fix all of them:`, ...failures.map((failure) => `- ${failure.detail}`)];
  return `${lines.join('\n')}${extra === '' ? '' : `\n${extra.trim()}`}`;
}

/**
 * What the agent is told when a call broke only rules at `enforcement: warn`: it went ahead, and why each
 * rule still matters. A person promotes such a rule to block once it proves right (`holdfast rulebook promote`).
 */
export function warningOf(warnings: readonly GateFinding[]): string {
  const head = 'holdfast warning: this call went ahead, but it breaks';
  if (warnings.length === 1)
    return `${head} a rule of this project (warn level, not yet enforced): ${(warnings[0] as GateFinding).detail} Follow the rule from now on.`;
  return [
    `${head} ${warnings.length} rules of this project (warn level, not yet enforced); follow them from now on:`,
    ...warnings.map((warning) => `- ${warning.detail}`),
  ].join('\n');
}

/** The message of a crash: it says the gate failed closed and why. */
export function internalErrorReason(error: unknown, refused = 'this tool call is refused'): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? ` [${String((error as { code: unknown }).code)}]` : '';
  return `holdfast internal error${code}: ${message}. The gate fails closed, so ${refused}; tell the person running you.`;
}
