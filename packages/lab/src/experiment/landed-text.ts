import { execFile } from 'node:child_process';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText } from '@holdfast/core/rules';
import { GIT_HARDENING, hermeticGitEnv } from '../sandbox/index.js';
import type { RepoLocation } from './session/repo-git.js';

/** Files larger than this are judged on their first characters: the checks look for lines, not whole binaries. */
const MAX_JUDGED_CHARS = 2 * 1024 * 1024;

/** A landed file as the checks read it: its text, and why its bytes are not text when they are not. */
export interface LandedText {
  readonly text: string;
  /** Set when the bytes are neither valid UTF-8 nor valid in the encoding their byte-order mark names. */
  readonly undecodable?: string;
}

/**
 * Decodes landed bytes the way the gate does (by byte-order mark: UTF-8, UTF-16, UTF-32), so a
 * module written as UTF-16 is judged on the text its compiler reads. Undecodable bytes keep what
 * decoded (for the other rules) and the reason, which every content rule reaching the file refuses.
 */
function landedText(bytes: Uint8Array): LandedText {
  const decoded = decodeText(bytes);
  if (decoded.kind === 'text') return { text: decoded.text.slice(0, MAX_JUDGED_CHARS) };
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, MAX_JUDGED_CHARS)), undecodable: decoded.reason };
}

/** A file in the work tree as the checks should read it: a symlink is its target's name, never followed. */
export function readWorkTreeText(workTree: string, path: string): LandedText {
  const absolute = join(workTree, path);
  try {
    const stats = lstatSync(absolute);
    if (stats.isSymbolicLink()) return { text: readlinkSync(absolute) };
    if (!stats.isFile()) return { text: '' };
    return landedText(readFileSync(absolute));
  } catch {
    return { text: '' };
  }
}

/** A file as a commit has it, decoded like the work tree's; an unreadable blob reads as empty. */
export function readCommitText(repo: RepoLocation, commit: string, path: string): Promise<LandedText> {
  const location = repo.gitDir !== undefined ? [`--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree}`] : [];
  return new Promise((resolve) => {
    execFile(
      'git',
      [...GIT_HARDENING, ...location, 'cat-file', 'blob', `${commit}:${path}`],
      { cwd: repo.workTree, env: hermeticGitEnv(), maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' },
      (error, stdout) => resolve(error === null ? landedText(stdout) : { text: '' }),
    );
  });
}
