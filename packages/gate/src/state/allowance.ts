import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOLDFAST_DIR } from './session-state.js';
import { readJsonFile } from '@holdfast/core/command';

/**
 * A person's one-time override, written by `holdfast allow --once` at an interactive terminal: the
 * next agent tool call the gate would deny (for `rule`, or for any rule) goes ahead once, audited
 * as `allowed-by-person` with the reason. It lives under `.holdfast/`, where the agent's own writes
 * are refused as tampering, and the git pre-commit hook never reads it.
 */
export interface Allowance {
  readonly version: 1;
  readonly rule: string | undefined;
  readonly reason: string;
  readonly created: string;
  readonly expires: string;
}

export const ALLOWANCE_MINUTES = 10;

export function allowancePath(root: string): string {
  return join(root, HOLDFAST_DIR, 'allow.json');
}

export function grantAllowance(root: string, options: { rule: string | undefined; reason: string; now: Date }): Allowance {
  const allowance: Allowance = {
    version: 1,
    rule: options.rule,
    reason: options.reason,
    created: options.now.toISOString(),
    expires: new Date(options.now.getTime() + ALLOWANCE_MINUTES * 60_000).toISOString(),
  };
  const path = allowancePath(root);
  mkdirSync(join(root, HOLDFAST_DIR), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(allowance)}\n`);
  renameSync(temporary, path);
  return allowance;
}

function readAllowance(path: string): Allowance | undefined {
  const raw = readJsonFile(path);
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  if (record.version !== 1 || typeof record.reason !== 'string' || typeof record.created !== 'string' || typeof record.expires !== 'string') return undefined;
  if (record.rule !== undefined && typeof record.rule !== 'string') return undefined;
  return { version: 1, rule: record.rule, reason: record.reason, created: record.created, expires: record.expires };
}

/**
 * Uses up the allowance for a call denied for `rules`, if there is one that covers every one of them
 * and has not expired. Claimed by renaming the file away first, so two hook processes racing for it
 * cannot both use it. An expired or unreadable allowance is removed and never used.
 */
export function consumeAllowance(root: string, rules: readonly string[], now: Date): Allowance | undefined {
  const path = allowancePath(root);
  const allowance = readAllowance(path);
  if (allowance === undefined) {
    rmSync(path, { force: true });
    return undefined;
  }
  const expires = Date.parse(allowance.expires);
  if (!Number.isFinite(expires) || now.getTime() >= expires) {
    rmSync(path, { force: true });
    return undefined;
  }
  if (allowance.rule !== undefined && rules.some((rule) => rule !== allowance.rule)) return undefined;
  const claimed = `${path}.used-${process.pid}-${now.getTime()}`;
  try {
    renameSync(path, claimed);
  } catch {
    return undefined;
  }
  rmSync(claimed, { force: true });
  return allowance;
}
