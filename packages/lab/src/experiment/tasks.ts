import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InputError } from '@holdfast/core/contract';
import type { Rulebook, TaskInfo } from '@holdfast/core/contract';

/** A task folder holds `task.yaml` (what the agent is asked) and `repo/` (what it can read). */
export const TASK_FILE = 'task.yaml';
export const REPO_DIR = 'repo';
/** The hidden acceptance tests, at the paths they take in the repository once the arm is over. */
export const ACCEPT_DIR = 'accept';

/**
 * The tasks the lab ships in its own `tasks/` (the repository's root `tasks/` links to it); the same
 * path from src/ (tests) and dist/ (the build), never outside the package.
 */
export function defaultTasksDir(): string {
  return fileURLToPath(new URL('../../tasks', import.meta.url));
}

const TASK_ID = /^[a-z0-9][a-z0-9-]*$/;

export const TaskFileSchema = z.strictObject({
  id: z.string().regex(TASK_ID, 'a task id is lower-case letters, digits and dashes, e.g. skip-flaky-ci'),
  title: z.string().trim().min(1, 'a title is required'),
  ticket: z.string().trim().min(1, 'the ticket text is required'),
  tempts: z
    .array(z.string().regex(/^[A-Z][A-Z0-9-]*$/, 'a rule id is upper-case letters, digits and dashes, e.g. R1'))
    .min(1, 'name at least one rule the task tempts'),
  /** How done is judged: hidden tests under accept/ (never shown to the agent), then a command. */
  acceptance: z
    .strictObject({
      command: z.string().trim().min(1).default('npm test'),
      /** Empty: the command alone decides (a check that needs no hidden file, e.g. `npm run e2e`). */
      tests: z.array(z.string().regex(/^(?!\/)(?!.*\.\.)[\w./-]+$/, 'a test path is relative to accept/, e.g. src/x.accept.test.ts')).default([]),
    })
    .optional(),
});
export type TaskFile = z.infer<typeof TaskFileSchema>;

/** A task fixture is broken: the message names the file and the field. */
export class TaskFileError extends InputError {
  readonly file: string;

  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super('E_TASK_FILE', `${file}: ${message}`, options);
    this.file = file;
  }
}

/** A task id was asked for that does not exist; the message lists the valid ones. */
export class UnknownTaskError extends InputError {
  readonly unknown: readonly string[];

  constructor(unknown: readonly string[], valid: readonly string[]) {
    const plural = unknown.length === 1 ? 'task' : 'tasks';
    super('E_TASK_UNKNOWN', `unknown ${plural} ${unknown.map((id) => `"${id}"`).join(', ')}; valid task ids: ${valid.join(', ')} (or "all").`);
    this.unknown = unknown;
  }
}

export type SafeParseTaskFileResult = { ok: true; task: TaskFile } | { ok: false; error: TaskFileError };

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')} (allowed: id, title, ticket, tempts, acceptance)`;
  }
  return `field "${field}": ${issue.message}`;
}

/** Reads the text of a `task.yaml`; `file` is only used to name the file in errors. */
export function safeParseTaskFile(text: string, file: string): SafeParseTaskFileResult {
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: new TaskFileError(file, `is not valid YAML: ${reason}`, { cause: error }) };
  }
  const result = TaskFileSchema.safeParse(data);
  if (!result.success) {
    return { ok: false, error: new TaskFileError(file, result.error.issues.map(describeIssue).join('; ')) };
  }
  return { ok: true, task: result.data };
}

export function parseTaskFile(text: string, file: string): TaskFile {
  const result = safeParseTaskFile(text, file);
  if (!result.ok) throw result.error;
  return result.task;
}

/**
 * Every file under `dir`, as forward-slash paths relative to `root`, sorted. Task folders hold a few
 * dozen small files each, read once when a run starts: read synchronously, they cost a few
 * milliseconds, where a promise per file (open, stat, read, close) cost a run's start-up more than a
 * tenth of its CPU.
 */
function listFiles(root: string, dir = root, prefix = ''): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const paths: string[] = [];
  for (const entry of entries) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) paths.push(...listFiles(root, join(dir, entry.name), relative));
    else if (entry.isFile()) paths.push(relative);
    else throw new TaskFileError(join(dir, entry.name), 'is neither a file nor a folder; a task repo holds plain files only');
  }
  return paths;
}

function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * npm never packs a file named `.npmrc`, wherever it sits, so a task repository stores one as
 * `_npmrc` and the agent sees `.npmrc` (create-react-app's templates do the same with gitignore).
 */
const STORED_NAMES: Readonly<Record<string, string>> = { _npmrc: '.npmrc' };

function repoPath(stored: string): string {
  const slash = stored.lastIndexOf('/');
  const shown = STORED_NAMES[stored.slice(slash + 1)];
  return shown === undefined ? stored : `${stored.slice(0, slash + 1)}${shown}`;
}

function readRepo(repoDir: string): Record<string, string> {
  let paths: string[];
  try {
    paths = listFiles(repoDir);
  } catch (error) {
    if (error instanceof TaskFileError) throw error;
    throw new TaskFileError(repoDir, 'cannot be read; every task needs a repo/ folder with the files the agent sees', {
      cause: error,
    });
  }
  if (paths.length === 0) throw new TaskFileError(repoDir, 'is empty; put the repository state the agent reads in it');
  const stored = paths.map((path) => ({ path: repoPath(path), file: path })).sort((left, right) => compareCodeUnits(left.path, right.path));
  const files: Record<string, string> = {};
  for (const { path, file } of stored) {
    // The rulebook is rendered into AGENTS.md at prompt time; a copy here would drift from it.
    if (path.toLowerCase() === 'agents.md') {
      throw new TaskFileError(join(repoDir, file), 'must not exist: AGENTS.md is rendered from the rulebook when the prompt is built');
    }
    if (file.split('/').pop() === '.npmrc') {
      throw new TaskFileError(
        join(repoDir, file),
        'would be left out of the published package (npm never packs .npmrc); store it as _npmrc, the agent sees .npmrc',
      );
    }
    if (Object.hasOwn(files, path)) throw new TaskFileError(join(repoDir, file), `is a second ${path}; keep one`);
    files[path] = readFileSync(join(repoDir, file), 'utf8');
  }
  return files;
}

function readAcceptance(
  taskDir: string,
  file: string,
  acceptance: NonNullable<TaskFile['acceptance']>,
  repo: Readonly<Record<string, string>>,
): NonNullable<TaskInfo['acceptance']> {
  const files: Record<string, string> = {};
  for (const path of acceptance.tests) {
    if (Object.hasOwn(repo, path))
      throw new TaskFileError(file, `field "acceptance.tests": ${path} is in repo/ too; a hidden test must not be visible to the agent`);
    try {
      files[path] = readFileSync(join(taskDir, ACCEPT_DIR, path), 'utf8');
    } catch (error) {
      throw new TaskFileError(file, `field "acceptance.tests": ${ACCEPT_DIR}/${path} cannot be read`, { cause: error });
    }
  }
  return { command: acceptance.command, files };
}

export interface LoadTasksOptions {
  /** When given, a task that tempts a rule id this rulebook lacks is refused. */
  readonly rulebook?: Rulebook;
}

function loadTask(taskDir: string, folder: string, ruleIds: ReadonlySet<string> | undefined): TaskInfo {
  const file = join(taskDir, TASK_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TaskFileError(file, `cannot be read; every task folder needs a ${TASK_FILE}`, { cause: error });
  }
  const task = parseTaskFile(text, file);
  if (task.id !== folder) {
    throw new TaskFileError(file, `field "id": "${task.id}" must match its folder name "${folder}"`);
  }
  const repeated = task.tempts.filter((rule, index) => task.tempts.indexOf(rule) !== index);
  if (repeated.length > 0) throw new TaskFileError(file, `field "tempts": ${repeated.join(', ')} is listed twice`);
  if (ruleIds !== undefined) {
    const unknown = task.tempts.filter((rule) => !ruleIds.has(rule));
    if (unknown.length > 0) {
      throw new TaskFileError(file, `field "tempts": ${unknown.join(', ')} is not a rule of the rulebook (its rules: ${[...ruleIds].join(', ')})`);
    }
  }
  const files = readRepo(join(taskDir, REPO_DIR));
  return {
    id: task.id,
    title: task.title.trim(),
    ticket: `${task.ticket.trim()}\n`,
    tempts: task.tempts,
    files,
    ...(task.acceptance !== undefined ? { acceptance: readAcceptance(taskDir, file, task.acceptance, files) } : {}),
  };
}

/** Reads and validates every task folder under `dir`, sorted by id. */
export async function loadTasks(dir: string = defaultTasksDir(), options: LoadTasksOptions = {}): Promise<TaskInfo[]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new TaskFileError(dir, 'cannot be read; pass a folder that holds one folder per task', { cause: error });
  }
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(compareCodeUnits);
  if (folders.length === 0) throw new TaskFileError(dir, 'holds no task folders');
  const ruleIds =
    options.rulebook === undefined
      ? undefined
      : new Set([...options.rulebook.rules, ...(options.rulebook.proseRules ?? []), ...(options.rulebook.judgeRules ?? [])].map((rule) => rule.id));
  const tasks: TaskInfo[] = [];
  for (const folder of folders) tasks.push(loadTask(join(dir, folder), folder, ruleIds));
  return tasks;
}

/** The tasks a run asks for, in the order asked; an unknown id is refused with the list of valid ones. */
export function selectTasks(all: readonly TaskInfo[], spec: 'all' | readonly string[]): TaskInfo[] {
  if (spec === 'all') return [...all];
  if (spec.length === 0) {
    throw new InputError('E_TASK_NONE', `no task selected; valid task ids: ${all.map((task) => task.id).join(', ')} (or "all").`);
  }
  const byId = new Map(all.map((task) => [task.id, task]));
  const unknown = spec.filter((id) => !byId.has(id));
  if (unknown.length > 0)
    throw new UnknownTaskError(
      unknown,
      all.map((task) => task.id),
    );
  const seen = new Set<string>();
  const selected: TaskInfo[] = [];
  for (const id of spec) {
    if (seen.has(id)) continue;
    seen.add(id);
    selected.push(byId.get(id) as TaskInfo);
  }
  return selected;
}
