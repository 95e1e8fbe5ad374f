import { readShellCommand } from '../shell/shell-command.js';
import type { ShellReading } from '../shell/shell-command.js';

const ROOT = '/repo';

/** A project as the shell reader sees it: file contents by repo path, and which paths are folders. */
export interface FakeTree {
  readonly files?: Record<string, string>;
  readonly folders?: readonly string[];
}

/** Reads a command in `/repo` (or `cwd` under it) against an in-memory tree. */
export function readIn(command: string, tree: FakeTree = {}, cwd = ROOT): ShellReading {
  const files: Record<string, string> = { 'existing.txt': 'old\n', ...tree.files };
  const folders = new Set(['', 'src', '.git', '.git/hooks', ...(tree.folders ?? [])]);
  const repoPath = (absolute: string): string => (absolute === ROOT ? '' : absolute.startsWith(`${ROOT}/`) ? absolute.slice(ROOT.length + 1) : `\0${absolute}`);
  return readShellCommand(command, {
    root: ROOT,
    cwd,
    home: '/home/agent',
    readText: (absolute) => files[repoPath(absolute)],
    isDirectory: (absolute) => folders.has(repoPath(absolute)),
  });
}

/** Wraps `inner` in single quotes for a shell, the way `bash -c '…'` needs it. */
export function singleQuoted(inner: string): string {
  return `'${inner.replace(/'/g, `'\\''`)}'`;
}

/** Wraps `inner` in double quotes, escaping what the shell would expand. */
export function doubleQuoted(inner: string): string {
  return `"${inner.replace(/[\\"$`]/g, (char) => `\\${char}`)}"`;
}
