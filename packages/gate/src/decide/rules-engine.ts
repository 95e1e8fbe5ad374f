import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { writeAtomically } from '../io/index.js';
import { nodeCrypto } from '../io/index.js';
import { sealText, unsealText } from '../state/index.js';
import { packageVersion } from '@holdfast/core/command';
import type { Rulebook } from '@holdfast/core/contract';
import type { CheckActions } from './decide.js';
import { keepPatternAnswersOf } from '../state/index.js';
import { HOLDFAST_DIR } from '../state/index.js';
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

/** The shipped rulebook, resolved through the core's package, which also holds inside the hook bundle. */
export function shippedRulebookPath(): string {
  return defaultRulebookPath();
}

interface CacheRecord {
  readonly format: 4;
  readonly source: string;
  readonly rulebook: Rulebook;
  /** Every string in a list of a rule's check, compiled as a glob (those that are globs are matched with it). */
  readonly globs?: Record<string, CompiledGlob>;
}

/**
 * holdfast's own identity, for the cache key: its version and the size and time of the code that is
 * running (the hook bundle, or the source file), so a rebuilt or reinstalled holdfast parses again.
 */
function holdfastIdentity(): string {
  let code = '';
  try {
    const stats = statSync(fileURLToPath(import.meta.url));
    code = `${stats.size}:${stats.mtimeMs}`;
  } catch {
    // no file to read (an unusual loader): the version alone
  }
  return `${packageVersion()}\0${code}`;
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
 * The validated rulebook, kept under `.holdfast/cache/` by the hash of its content and of holdfast
 * itself (never by the file's path, size or time, which a command can set back), with its globs
 * compiled. The record is sealed (state-seal.ts): one a command wrote or edited does not verify, and
 * the rulebook is parsed and validated again and the record written anew.
 */
export async function loadRulebookCached(root: string, file: string | undefined, engine: RulesEngine): Promise<Rulebook> {
  keepPatternAnswersOf(root);
  const source = file ?? shippedRulebookPath();
  let content: Buffer;
  try {
    content = readFileSync(source);
  } catch {
    return engine.loadRulebook(file);
  }
  const key = nodeCrypto().createHash('sha256').update(holdfastIdentity()).update('\0').update(content).digest('hex').slice(0, 32);
  const folder = join(root, HOLDFAST_DIR, 'cache');
  const cachePath = join(folder, `rulebook-${key}.json`);
  const purpose = `rulebook-cache\0${key}`;
  const record = readCacheRecord(cachePath, purpose);
  if (record !== undefined && record.source === source) {
    knowCompiledGlobs(record.globs);
    return record.rulebook;
  }
  const rulebook = await engine.loadRulebook(file);
  try {
    mkdirSync(folder, { recursive: true });
    for (const name of readdirSync(folder))
      if (/^rulebook-[0-9a-f]+\.json$/.test(name) && name !== `rulebook-${key}.json`) rmSync(join(folder, name), { force: true });
    const fresh: CacheRecord = { format: 4, source, rulebook, globs: rulebookGlobs(rulebook) };
    writeAtomically(cachePath, sealText(purpose, JSON.stringify(fresh)));
  } catch {
    // a cache that cannot be written only costs speed
  }
  return rulebook;
}

function readCacheRecord(path: string, purpose: string): CacheRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const body = unsealText(purpose, text);
  const record = (body === undefined ? undefined : jsonOrUndefined(body)) as Partial<CacheRecord> | undefined;
  if (record?.format !== 4 || typeof record.source !== 'string' || typeof record.rulebook !== 'object' || record.rulebook === null) return undefined;
  return Array.isArray(record.rulebook.rules) ? (record as CacheRecord) : undefined;
}
