import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '@holdfast/core/command';
import type { Rulebook } from '@holdfast/core/contract';
import type { CheckActions } from './decide.js';
import { keepPatternAnswersOf } from './pattern-answers.js';
import { HOLDFAST_DIR } from './session-state.js';
import { readJsonFile } from '@holdfast/core/command';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { compiledGlob, knowCompiledGlobs } from '@holdfast/core/rules';
import type { CompiledGlob } from '@holdfast/core/rules';

/** What the gate needs of src/rules. Loaded on demand: a tool the gate ignores never pays for it. */
export interface RulesEngine {
  loadRulebook(file?: string): Rulebook | Promise<Rulebook>;
  readonly checkActions: CheckActions;
}

/**
 * Only the judging half of src/rules is imported here: the rulebook parser (YAML and zod) is
 * loaded when the rulebook cache misses, which is once per change of the rulebook file.
 */
export async function loadRulesEngine(): Promise<RulesEngine> {
  const { checkActions } = await import('@holdfast/core/rules/check-actions');
  return {
    loadRulebook: async (file) => (await import('@holdfast/core/rules/load-rulebook')).loadRulebook(file),
    checkActions,
  };
}

/** The shipped rulebook: the core's own path for it, which also holds inside the hook bundle. */
export function shippedRulebookPath(): string {
  return defaultRulebookPath();
}

/**
 * A short file-name-safe key for a rulebook path (FNV-1a, two 32-bit lanes). Not a security measure:
 * the record inside names its source and is used only when that matches, so a collision is a cache miss.
 */
export function pathKey(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 7), 0x01000193) >>> 0;
  }
  return `${low.toString(16).padStart(8, '0')}${high.toString(16).padStart(8, '0')}`;
}

interface CacheRecord {
  readonly format: 3;
  readonly version: string;
  readonly source: string;
  readonly mtimeMs: number;
  readonly size: number;
  readonly rulebook: Rulebook;
  /** Every string in a list of a rule's check, compiled as a glob (those that are globs are matched with it). */
  readonly globs?: Record<string, CompiledGlob>;
}

/** The globs of a rulebook's checks, compiled: every list of strings in a check (a non-glob in one costs only this). */
function rulebookGlobs(rulebook: Rulebook): Record<string, CompiledGlob> {
  const globs: Record<string, CompiledGlob> = {};
  for (const rule of Array.isArray(rulebook.rules) ? rulebook.rules : []) {
    const check: unknown = (rule as { check?: unknown }).check;
    if (typeof check !== 'object' || check === null) continue;
    for (const value of Object.values(check)) {
      if (!Array.isArray(value)) continue;
      for (const glob of value) {
        if (typeof glob !== 'string' || glob in globs) continue;
        try {
          globs[glob] = compiledGlob(glob);
        } catch {
          // not a glob picomatch takes: the check that uses it says so when it is prepared
        }
      }
    }
  }
  return globs;
}

/**
 * The validated rulebook, kept as JSON under `.holdfast/cache/` and reused while the file's path,
 * size, mtime and holdfast's version are unchanged, with its globs compiled. The cache is holdfast's own output; a record
 * that does not read back is ignored and the rulebook is parsed and validated again.
 */
export async function loadRulebookCached(root: string, file: string | undefined, engine: RulesEngine): Promise<Rulebook> {
  keepPatternAnswersOf(root);
  const source = file ?? shippedRulebookPath();
  let stats: { mtimeMs: number; size: number };
  try {
    stats = statSync(source);
  } catch {
    return engine.loadRulebook(file);
  }
  const version = packageVersion();
  const key = pathKey(source);
  const cachePath = join(root, HOLDFAST_DIR, 'cache', `rulebook-${key}.json`);
  // No cache yet, or an unreadable one: parse below.
  const record = readJsonFile(cachePath) as Partial<CacheRecord> | null | undefined;
  if (
    record?.format === 3 &&
    record.version === version &&
    record.source === source &&
    record.mtimeMs === stats.mtimeMs &&
    record.size === stats.size &&
    typeof record.rulebook === 'object' &&
    record.rulebook !== null &&
    Array.isArray(record.rulebook.rules)
  ) {
    knowCompiledGlobs(record.globs);
    return record.rulebook;
  }
  const rulebook = await engine.loadRulebook(file);
  try {
    mkdirSync(join(root, HOLDFAST_DIR, 'cache'), { recursive: true });
    const record: CacheRecord = {
      format: 3,
      version,
      source,
      mtimeMs: stats.mtimeMs,
      size: stats.size,
      rulebook,
      globs: rulebookGlobs(rulebook),
    };
    const temporary = `${cachePath}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, cachePath);
  } catch {
    // a cache that cannot be written only costs speed
  }
  return rulebook;
}
