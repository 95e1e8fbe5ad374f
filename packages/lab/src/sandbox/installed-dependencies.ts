import { execFile } from 'node:child_process';
import { GIT_HARDENING, hermeticGitEnv } from './git.js';

const DEPENDENCY_FOLDERS = new Set(['node_modules', '.venv', 'venv']);

/**
 * The ignored dependency folders of a repository (relative), as git lists them: root and workspace
 * packages alike. What a trial of a task from that repository binds read-only at the same paths
 * (`tasks new --from-commit`, `run --sandbox --installed-in`).
 */
export function installedDependencies(repoDir: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...GIT_HARDENING, '-C', repoDir, 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
      { env: hermeticGitEnv(), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) return resolve([]);
        const folders = stdout.split('\0').map((path) => path.replace(/\/$/, ''));
        resolve(
          folders.filter(
            (path) =>
              DEPENDENCY_FOLDERS.has(path.split('/').at(-1) ?? '') &&
              !path
                .split('/')
                .slice(0, -1)
                .some((part) => DEPENDENCY_FOLDERS.has(part)),
          ),
        );
      },
    );
  });
}
