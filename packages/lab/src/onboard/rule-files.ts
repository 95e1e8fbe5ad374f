import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
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

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Reads the rule files; each is named in the draft relative to the repository when it lies inside it.
 * A file reached twice (CLAUDE.md a symlink to AGENTS.md) is read once, so no rule is drafted twice.
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
  for (const path of paths) {
    const real = realPath(path);
    if (seen.has(real)) continue;
    seen.add(real);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new OnboardError('E_RULE_FILE', `${path} cannot be read; pass --from an existing AGENTS.md, CLAUDE.md, Cursor rule or Copilot instructions file.`, {
        cause: error,
      });
    }
    const inside = relative(repoDir, path);
    files.push({ path: inside.startsWith('..') ? path : inside, text });
  }
  return files;
}
