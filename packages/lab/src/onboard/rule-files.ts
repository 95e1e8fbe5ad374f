import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { redactSecrets } from '@holdfast/core/rules';
import { hardenedGit } from '../sandbox/git.js';
import type { RuleFileText } from './draft-rulebook.js';
import { OnboardError } from './onboard-error.js';
import { kindByPath } from './select-files.js';

/** The rule files agents read, in the order `rulebook init` prefers them when none is named. */
const CANDIDATES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.cursorrules'];
const CURSOR_RULES = '.cursor/rules';

/**
 * The rule file of a repository when the person names none: the first of AGENTS.md, CLAUDE.md,
 * .github/copilot-instructions.md, .cursorrules, else every Cursor rule in .cursor/rules/.
 */
export function findRuleFiles(repoDir: string): string[] {
  const first = CANDIDATES.find((candidate) => existsSync(join(repoDir, candidate)));
  if (first !== undefined) return [join(repoDir, first)];
  const cursorDir = join(repoDir, CURSOR_RULES);
  if (!existsSync(cursorDir)) return [];
  return readdirSync(cursorDir)
    .filter((name) => name.endsWith('.mdc') || name.endsWith('.md'))
    .sort()
    .map((name) => join(cursorDir, name));
}

/** The largest rule file drafted: a team's AGENTS.md is a few KiB; 256 KiB is over 4,000 lines of rules. */
export const MAX_RULE_FILE_BYTES = 256 * 1024;

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Reads at most `MAX_RULE_FILE_BYTES` + 1 bytes, so a huge or endless file (a FIFO, /dev/zero) is refused, not read. */
async function readBounded(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_RULE_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Reads the rule files, each named in the draft relative to the repository. A file reached twice (CLAUDE.md
 * a symlink to AGENTS.md) is read once, so no rule is drafted twice. A file whose real path lies outside the
 * repository is refused, so is one over `MAX_RULE_FILE_BYTES`; keys the file quotes are masked.
 */
export async function readRuleFiles(paths: readonly string[], repoDir: string, scopes: ReadonlyMap<string, string> = new Map()): Promise<RuleFileText[]> {
  if (paths.length === 0) {
    throw new OnboardError(
      'E_RULE_FILE',
      `${repoDir} has no AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .cursorrules or .cursor/rules/; name your rule file with --from FILE.`,
    );
  }
  const files: RuleFileText[] = [];
  const seen = new Set<string>();
  const root = realPath(repoDir);
  for (const path of paths) {
    const real = realPath(path);
    // Whatever a symlink says, nothing outside the repository is copied into its rulebook.
    if (!inside(root, real)) {
      throw new OnboardError(
        'E_RULE_FILE',
        `${path} ${real === path ? 'lies' : `is a link to ${real}, which lies`} outside the repository ${repoDir}; holdfast drafts only rule files inside it. Copy the rules into the repository's AGENTS.md, or pass --from a file inside it.`,
      );
    }
    if (seen.has(real)) continue;
    seen.add(real);
    let bytes: Buffer;
    try {
      bytes = await readBounded(real);
    } catch (error) {
      throw new OnboardError('E_RULE_FILE', `${path} cannot be read; pass --from an existing AGENTS.md, CLAUDE.md, Cursor rule or Copilot instructions file.`, {
        cause: error,
      });
    }
    if (bytes.length > MAX_RULE_FILE_BYTES) {
      throw new OnboardError(
        'E_RULE_FILE',
        `${path} is larger than ${MAX_RULE_FILE_BYTES / 1024} KiB, the most holdfast drafts from one rule file; split it (agents read a nested AGENTS.md in each folder) or pass --from the part that holds the rules.`,
      );
    }
    // Keys a rule file quotes are masked before anything is copied from it: into the rulebook, the prompt, the table.
    const text = await redactSecrets(bytes.toString('utf8'));
    const name = relative(root, real);
    const given = relative(repoDir, path);
    const scope = scopes.get(path);
    files.push({ path: !given.startsWith('..') && !isAbsolute(given) ? given : name, text, ...(scope !== undefined ? { scope } : {}) });
  }
  return files;
}

/** A rule file found in the repository, with the folder its rules are for when it is nested. */
export interface FoundRuleFile {
  readonly path: string;
  /** `packages/x` for `packages/x/AGENTS.md`; undefined at the root. */
  readonly scope?: string;
}

export interface RuleFileDiscovery {
  readonly files: readonly FoundRuleFile[];
  /** What was found and not read, and why (a link or import that leaves the repository, a missing import). */
  readonly notes: readonly string[];
}

/** The most nested rule files drafted: past it the rest are named in a note. */
const MAX_NESTED_RULE_FILES = 50;
/** How deep Claude Code follows `@file` imports. */
const MAX_IMPORT_DEPTH = 5;

/** `@path` imports of a CLAUDE.md (Claude Code's memory imports), outside code spans and blocks: Markdown files only. */
export function ruleFileImports(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^]*?^(```|~~~)/gm, '').replace(/`[^`\n]*`/g, '');
  const found: string[] = [];
  for (const match of prose.matchAll(/(?:^|[\s(])@((?:~|\.{1,2})?\/?[\w.\-/]*[\w-]\.(?:md|mdc))(?=$|[\s),.;:])/gm)) {
    const path = match[1];
    if (path !== undefined && !found.includes(path)) found.push(path);
  }
  return found;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The rule files agents read in a repository: the root AGENTS.md and CLAUDE.md (one a link to the other is read
 * once), the files a CLAUDE.md imports with `@file`, and every nested AGENTS.md or CLAUDE.md git tracks (each with
 * the folder its rules are for, outside vendored folders and `ignoreFolders`). Without a root AGENTS.md or CLAUDE.md,
 * Copilot instructions, .cursorrules or Cursor rules as `findRuleFiles` picks them. A file whose real path leaves
 * the repository is never read: it is named in a note.
 */
export async function discoverRuleFiles(repoDir: string, options: { readonly ignoreFolders?: readonly string[] } = {}): Promise<RuleFileDiscovery> {
  const root = realPath(repoDir);
  const notes: string[] = [];
  const files: FoundRuleFile[] = [];
  const seen = new Set<string>();
  const add = (path: string, scope: string | undefined, from: string | undefined): void => {
    const shown = relative(repoDir, path) || path;
    let real: string;
    try {
      lstatSync(path);
      real = realpathSync(path);
    } catch {
      if (from !== undefined) notes.push(`${from} imports ${shown}, which does not exist: not read.`);
      else if (isSymlink(path)) notes.push(`${shown} is a link to a file that does not exist: not read.`);
      return;
    }
    if (!inside(root, real)) {
      notes.push(
        `${shown} ${from !== undefined ? `(imported by ${from}) ` : ''}is ${real === resolve(path) ? '' : `a link to ${real}, `}outside the repository: not read (holdfast drafts only rule files inside it).`,
      );
      return;
    }
    if (!isRegularFile(real) || seen.has(real)) return;
    seen.add(real);
    files.push({ path, ...(scope !== undefined ? { scope } : {}) });
  };
  const withImports = async (path: string, scope: string | undefined, depth: number, from?: string): Promise<void> => {
    const before = files.length;
    add(path, scope, from);
    if (files.length === before || depth >= MAX_IMPORT_DEPTH) return;
    const text = (await readBounded(realpathSync(path))).toString('utf8');
    for (const imported of ruleFileImports(text)) {
      const target = imported.startsWith('~') ? join('/nonexistent-home', imported.slice(1)) : resolve(dirname(path), imported);
      if (imported.startsWith('~') || isAbsolute(imported)) {
        notes.push(`${relative(repoDir, path)} imports ${imported}, outside the repository: not read (holdfast drafts only rule files inside it).`);
        continue;
      }
      await withImports(target, scope, depth + 1, relative(repoDir, path));
    }
  };
  const rootFiles = ['AGENTS.md', 'CLAUDE.md'].filter((name) => existsSync(join(repoDir, name)) || isSymlink(join(repoDir, name)));
  if (rootFiles.length === 0) {
    for (const path of findRuleFiles(repoDir)) await withImports(path, undefined, 0);
  } else for (const name of rootFiles) await withImports(join(repoDir, name), undefined, 0);
  let tracked: string[] = [];
  try {
    tracked = (
      await hardenedGit(
        ['ls-files', '-z', '--', ':(glob)**/AGENTS.md', ':(glob)**/CLAUDE.md'],
        repoDir,
        {},
        (why, cause) => new OnboardError('E_RULE_FILE', why, { cause }),
      )
    )
      .split('\0')
      .filter((path) => path.includes('/'));
  } catch {
    notes.push(`${repoDir}: git could not list nested rule files; only the root's were read.`);
  }
  const ignored = new Set(options.ignoreFolders ?? []);
  const nested = tracked.filter((path) => kindByPath(path) !== 'vendored' && !ignored.has(path.split('/')[0] ?? '')).sort();
  for (const path of nested.slice(0, MAX_NESTED_RULE_FILES)) await withImports(join(repoDir, path), dirname(path), 0);
  if (nested.length > MAX_NESTED_RULE_FILES)
    notes.push(`${nested.length} nested rule files, of which the first ${MAX_NESTED_RULE_FILES} were read; name the others with --from FILE.`);
  return { files, notes };
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
