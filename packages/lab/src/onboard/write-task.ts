import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { ACCEPT_DIR, REPO_DIR, TASK_FILE, parseTaskFile } from '../experiment/tasks.js';
import type { Acceptance } from '../sandbox/index.js';
import type { TaskFile } from '../experiment/tasks.js';
import { OnboardError } from './onboard-error.js';
import { snapshotRepo } from './repo-snapshot.js';
import type { RepoSnapshot, SnapshotOptions } from './repo-snapshot.js';

export interface NewTaskOptions extends SnapshotOptions {
  readonly repoDir: string;
  /** The tasks folder (what `run --tasks-dir` takes); the task becomes one folder in it. */
  readonly outDir: string;
  readonly ticket: string;
  readonly tempts: readonly string[];
  readonly id?: string;
  readonly title?: string;
  /** A snapshot already taken (so a caller can refuse an oversized repo before writing anything). */
  readonly snapshot?: RepoSnapshot;
  /** Extra comment lines for the top of task.yaml. */
  readonly note?: readonly string[];
  /** The hidden acceptance check: its tests go to accept/ (and never to repo/), its command to task.yaml. */
  readonly acceptance?: Acceptance;
}

export interface NewTask {
  readonly dir: string;
  readonly task: TaskFile;
  readonly snapshot: RepoSnapshot;
}

/** A task id from the repository's folder name and the commit: `my-service-1a2b3c4`. */
export function defaultTaskId(repoDir: string, commit: string): string {
  const slug = basename(repoDir)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug === '' ? 'repo' : slug}-${commit.slice(0, 7)}`;
}

/** The ticket's first line, shortened: a person can rename it in task.yaml. */
export function defaultTitle(ticket: string): string {
  const first = ticket.trim().split('\n')[0]?.trim() ?? '';
  const title = first.replace(/^#+\s*/, '');
  return title.length <= 80 ? title : `${title.slice(0, 77)}…`;
}

function describeSkipped(snapshot: RepoSnapshot): string[] {
  const counts = new Map<string, number>();
  for (const file of snapshot.skipped) counts.set(file.reason, (counts.get(file.reason) ?? 0) + 1);
  return [...counts.entries()].map(([reason, count]) => `${count} ${reason}`);
}

/** The task.yaml text: the fields the loader reads, and where the repository came from as comments. */
function taskYaml(task: TaskFile, repoDir: string, snapshot: RepoSnapshot, note: readonly string[]): string {
  const skipped = describeSkipped(snapshot);
  const header = [
    `# Made by \`holdfast tasks new\` from ${repoDir} at commit ${snapshot.commit}.`,
    `# repo/ holds the ${Object.keys(snapshot.files).length} text files git tracks at that commit (${snapshot.bytes} bytes).`,
    ...(skipped.length > 0
      ? [
          `# Left out: ${skipped.join(', ')} (binary, symlinks, submodules, files over 1 MB, --exclude, lock files, vendored, minified, docs, sampled past --max-bytes, and AGENTS.md, which the rulebook replaces).`,
        ]
      : []),
    '# Edit the ticket to be the request a person would really file; `tempts` names the rules it pulls against.',
    ...note.map((line) => `# ${line}`),
  ];
  return `${header.join('\n')}\n${stringify(task, { lineWidth: 0 })}`;
}

/**
 * Makes a task folder from a git repository at a commit: `task.yaml` plus `repo/` with the files
 * as git sees them. Refuses a folder that already exists, and a repository over the size cap.
 */
export async function writeTaskFromRepo(options: NewTaskOptions): Promise<NewTask> {
  const snapshot = options.snapshot ?? (await snapshotRepo(options.repoDir, options));
  const id = options.id ?? defaultTaskId(options.repoDir, snapshot.commit);
  const dir = join(options.outDir, id);
  const file = join(dir, TASK_FILE);
  const acceptance = options.acceptance;
  const task = parseTaskFile(
    stringify({
      id,
      title: options.title ?? defaultTitle(options.ticket),
      ticket: `${options.ticket.trim()}\n`,
      tempts: [...options.tempts],
      ...(acceptance !== undefined ? { acceptance: { command: acceptance.command, tests: Object.keys(acceptance.files) } } : {}),
    }),
    file,
  );
  if (existsSync(dir)) throw new OnboardError('E_TASK_OUT', `${dir} already exists; pick another --id or --out, or delete it first.`);
  for (const [path, content] of Object.entries(acceptance?.files ?? {})) {
    const target = join(dir, ACCEPT_DIR, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  for (const [path, content] of Object.entries(snapshot.files)) {
    // A hidden test is never visible to the agent, whatever the repository holds at that path.
    if (acceptance !== undefined && Object.hasOwn(acceptance.files, path)) continue;
    // npm never packs a `.npmrc`, so a task stores it as `_npmrc` and the agent still sees `.npmrc`.
    const stored = basename(path) === '.npmrc' ? join(dirname(path), '_npmrc') : path;
    const target = join(dir, REPO_DIR, stored);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  await writeFile(file, taskYaml(task, options.repoDir, snapshot, options.note ?? []));
  return { dir, task, snapshot };
}
