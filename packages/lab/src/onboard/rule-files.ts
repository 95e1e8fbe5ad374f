import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { redactSecrets } from '@holdfast/core/rules';
import type { RuleFileText } from './draft-rulebook.js';
import { OnboardError } from './onboard-error.js';

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
export async function readRuleFiles(paths: readonly string[], repoDir: string): Promise<RuleFileText[]> {
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
    files.push({ path: !given.startsWith('..') && !isAbsolute(given) ? given : name, text });
  }
  return files;
}
