import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { AgentSchema, InputError, PRESSURE_KIND_EXTENSIONS, safeParseJson } from '@holdfast/core/contract';
import type { Agent } from '@holdfast/core/contract';
import { defaultRulebookPath } from '@holdfast/core/rules';
import type { FixtureSource } from './lint-set.js';

/** Files in the fixtures folder that are not fixtures. */
export const AGENTS_FILE = 'agents.json';
export const UNCOVERED_FILE = 'uncovered.json';
export const EXTENSIONS_FILE = 'extensions.json';
export const SUITE_FILE = 'suite.json';
const RESERVED = new Set([AGENTS_FILE, UNCOVERED_FILE, EXTENSIONS_FILE, SUITE_FILE]);

const AgentsFileSchema = z.strictObject({ agents: z.array(AgentSchema) });
const UncoveredFileSchema = z.strictObject({
  /** Why these rules have no fixture yet, for people. */
  note: z.string().optional(),
  uncovered: z.array(z.string()),
});

const ExtensionsFileSchema = z.strictObject({
  /** Why the suite goes beyond the seed, for people. */
  note: z.string().optional(),
  /** Pressure kinds beyond the seed's six that this suite's fixtures may use. */
  pressures: z.array(z.enum(PRESSURE_KIND_EXTENSIONS)).default([]),
});

/** Every `*.json` fixture in a folder, sorted by name so runs are reproducible. */
export async function readFixtureSources(dir: string): Promise<FixtureSource[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new InputError('E_PRESSURE_DIR', `cannot read the fixtures folder ${dir}`, { cause: error });
  }
  const files = names.filter((name) => name.endsWith('.json') && !RESERVED.has(name)).sort();
  // A file that cannot be read is kept as a refusal: a suite that shrinks must fail, not pass smaller.
  return Promise.all(
    files.map(async (name): Promise<FixtureSource> => {
      const file = join(dir, name);
      try {
        return { file, text: await readFile(file, 'utf8') };
      } catch (error) {
        return { file, text: '', unreadable: (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error)) };
      }
    }),
  );
}

async function readOptionalJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError('E_PRESSURE_FILE', `cannot read ${file}`, { cause: error });
  }
  const json = safeParseJson(text);
  if (!json.ok) throw new InputError('E_PRESSURE_FILE', `${file} is not valid JSON`, { cause: json.cause });
  return json.value;
}

/** Agents declared beside the fixtures, in addition to the rulebook's; none when the file is absent. */
export async function readAgentsFile(dir: string): Promise<Agent[]> {
  const file = join(dir, AGENTS_FILE);
  const raw = await readOptionalJson(file);
  if (raw === undefined) return [];
  const parsed = AgentsFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError('E_PRESSURE_FILE', `${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.agents;
}

/** The pinned fixture debt: rule ids known to have no fixture. Absent means "none". */
export async function readUncoveredFile(dir: string): Promise<string[] | undefined> {
  const file = join(dir, UNCOVERED_FILE);
  const raw = await readOptionalJson(file);
  if (raw === undefined) return undefined;
  const parsed = UncoveredFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError('E_PRESSURE_FILE', `${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.uncovered;
}

/**
 * The extensions a suite declares beyond the seed (`extensions.json`). Absent means none: the
 * six seed pressures are the closed set.
 */
export async function readExtensionsFile(dir: string): Promise<{ pressures: string[] }> {
  const file = join(dir, EXTENSIONS_FILE);
  const raw = await readOptionalJson(file);
  if (raw === undefined) return { pressures: [] };
  const parsed = ExtensionsFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError('E_PRESSURE_FILE', `${file}: ${z.prettifyError(parsed.error)}; write e.g. {"pressures": ["pragmatic"]}`);
  return { pressures: parsed.data.pressures };
}

/** The word a `suite.json` names the shipped rulebook by. */
const SHIPPED_RULEBOOK_WORD = 'shipped';

const SuiteFileSchema = z.strictObject({
  /** Why the suite binds as it does, for people. */
  note: z.string().optional(),
  /**
   * The rulebook the fixtures were written against, relative to the folder, or `shipped` for the
   * rulebook holdfast ships (which holds wherever the suite is copied or installed): their rule ids mean its rules.
   */
  rulebook: z.string().min(1).optional(),
  /** Fixture rule reference ("R4", "8") → the measured rulebook's rule id, where meaning alone cannot bind it. */
  bind: z.record(z.string().min(1), z.string().min(1)).default({}),
});

/** What a suite says about its own rules (`suite.json`); absent, its fixtures name the measured rulebook's rules. */
export interface SuiteFile {
  /** Absolute path of the rulebook the fixtures were written against. */
  readonly rulebook: string | undefined;
  readonly bind: Readonly<Record<string, string>>;
}

export async function readSuiteFile(dir: string): Promise<SuiteFile> {
  const file = join(dir, SUITE_FILE);
  const raw = await readOptionalJson(file);
  if (raw === undefined) return { rulebook: undefined, bind: {} };
  const parsed = SuiteFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new InputError(
      'E_PRESSURE_FILE',
      `${file}: ${z.prettifyError(parsed.error)}; write e.g. {"rulebook": "../../rulebooks/default.yaml", "bind": {"R4": "NO-CONSOLE"}}`,
    );
  }
  return { rulebook: suiteRulebookPath(dir, parsed.data.rulebook), bind: parsed.data.bind };
}

function suiteRulebookPath(dir: string, rulebook: string | undefined): string | undefined {
  if (rulebook === undefined) return undefined;
  return rulebook === SHIPPED_RULEBOOK_WORD ? defaultRulebookPath() : resolve(dir, rulebook);
}
