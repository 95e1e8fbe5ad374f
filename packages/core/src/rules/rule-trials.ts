import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Rule, RuleCheck } from '../contract/index.js';
import { readJsonFile } from '../contract/json-file.js';
import { ruleFileHash } from './rulebook-sources.js';

/**
 * What `holdfast rulebook try` (and `holdfast init`) last found for each rule on the team's own recent
 * commits, kept beside the rulebook (`holdfast/rulebook.yaml` → `holdfast/rulebook.trials.json`), so the
 * team reviews the evidence with the rule. `rulebook promote` reads it before it sets a rule to block,
 * and doctor says whether the rulebook was ever tried. It only ever makes the gate stricter (a
 * promotion), so a record the agent could forge loosens nothing.
 */
const RuleTrialSchema = z.strictObject({
  /** The sha256 of the rule's check as tried: a check edited since is untried. */
  check: z.string(),
  /** Commits the rule would have refused, of `commits`; absent when a history cannot judge it. */
  refused: z.number().int().nonnegative().optional(),
  probablyWrong: z.boolean().optional(),
  /** Why a history of commits cannot judge the rule (order, requires, command). */
  notInHistory: z.string().optional(),
});

const RuleTrialsSchema = z.strictObject({
  version: z.literal(1),
  /** The commit the history was read back from. */
  head: z.string(),
  commits: z.number().int().nonnegative(),
  rules: z.record(z.string(), RuleTrialSchema),
});

type RuleTrial = z.infer<typeof RuleTrialSchema>;
export type RuleTrials = z.infer<typeof RuleTrialsSchema>;

/** Where a rulebook's trials are kept: beside it, `NAME.trials.json`. */
export function ruleTrialsPath(rulebookFile: string): string {
  return `${rulebookFile.replace(/\.ya?ml$/i, '')}.trials.json`;
}

/** The fingerprint a trial is kept under: the check's JSON with its keys sorted. */
export function checkFingerprint(check: RuleCheck): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([, entry]) => entry !== undefined)
              .sort(([left], [right]) => left.localeCompare(right))
              .map(([key, entry]) => [key, sorted(entry)]),
          )
        : value;
  return ruleFileHash(JSON.stringify(sorted(check)));
}

/** The rulebook's trials, or undefined when it has none (never tried, or a record that does not read). */
export function readRuleTrials(rulebookFile: string): RuleTrials | undefined {
  const parsed = RuleTrialsSchema.safeParse(readJsonFile(ruleTrialsPath(rulebookFile)));
  return parsed.success ? parsed.data : undefined;
}

export function writeRuleTrials(rulebookFile: string, trials: RuleTrials): void {
  const path = ruleTrialsPath(rulebookFile);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(trials, null, 2)}\n`);
}

/** The trial of a rule as it is now: undefined when it was never tried, or its check changed since. */
export function trialOf(trials: RuleTrials | undefined, rule: Pick<Rule, 'id' | 'check'>): RuleTrial | undefined {
  const trial = trials?.rules[rule.id];
  return trial !== undefined && trial.check === checkFingerprint(rule.check) ? trial : undefined;
}
