import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** git's environment for tests: no user or system config, a fixed identity, so a developer's settings change nothing. */
export function gitTestEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GIT_')) env[name] = value;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'gate',
    GIT_AUTHOR_EMAIL: 'gate@example.test',
    GIT_COMMITTER_NAME: 'gate',
    GIT_COMMITTER_EMAIL: 'gate@example.test',
    ...extra,
  };
}

export interface GitResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git in `cwd`; never throws, so a test can assert on a refusal. */
export function gitRun(cwd: string, args: readonly string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): GitResult {
  try {
    const stdout = execFileSync('git', args, { cwd, input: options.input, env: options.env ?? gitTestEnv(), stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
    return { status: 0, stdout, stderr: '' };
  } catch (error) {
    const failed = error as { status?: number; stdout?: Buffer; stderr?: Buffer };
    return { status: failed.status ?? 1, stdout: failed.stdout?.toString('utf8') ?? '', stderr: failed.stderr?.toString('utf8') ?? '' };
  }
}

/** Runs git and returns its trimmed stdout; a failure is a test error naming git's message. */
export function git(cwd: string, ...args: string[]): string {
  const result = gitRun(cwd, args);
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout.trim();
}

/** The shipped rulebook, the one the tests commit as the project's. */
const SHIPPED_RULEBOOK = fileURLToPath(new URL('../../../../rulebooks/default.yaml', import.meta.url));

/** A new repository on `main` with one commit: the shipped rulebook at holdfast/rulebook.yaml and a tested module. */
export function projectRepo(prefix = 'holdfast-refs-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  git(root, 'init', '-q', '-b', 'main');
  mkdirSync(join(root, 'holdfast'), { recursive: true });
  copyFileSync(SHIPPED_RULEBOOK, join(root, 'holdfast', 'rulebook.yaml'));
  writeFiles(root, { 'src/orders.ts': 'export const orders = 1;\n', 'src/orders.test.ts': "import './orders';\n" });
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', 'base');
  return root;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Writes the files, stages everything and commits without hooks; returns the new commit. */
export function commitFiles(root: string, files: Record<string, string>, message: string, ...extra: string[]): string {
  writeFiles(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', ...extra, '-m', message);
  return git(root, 'rev-parse', 'HEAD');
}
