/**
 * What of a repository fits into a plan-mode prompt. A small repository is shown whole; a large one
 * (a task made from someone's own repository) is shown as a tree listing plus the files the ticket
 * touches, within a character budget, so the prompt stays the same for both arms and every round.
 */

/** About 40k tokens of files: room for a ticket, the rulebook and a reply in today's context windows. */
export const PROMPT_BUDGET_CHARS = 160_000;

export interface PromptFiles {
  /** The listing of every path, or of folders with file counts when even the listing is too long. */
  readonly listing: readonly string[];
  /** The paths whose content the prompt carries, sorted. */
  readonly shown: readonly string[];
  /** True when some files are left out: the prompt says so. */
  readonly partial: boolean;
}

function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

const MANIFESTS = new Set(['package.json', 'README.md', 'tsconfig.json']);

/**
 * How strongly the ticket points at a file: its whole path named (4), its file name (3), its stem as
 * a word (2), a top-level manifest (1). A file next to a named one ranks 0.5; the rest 0.
 */
function rankFiles(paths: readonly string[], ticket: string, alwaysShown: ReadonlySet<string>): Map<string, number> {
  const words = new Set(ticket.toLowerCase().match(/[a-z0-9_.-]+/g) ?? []);
  const lowered = ticket.toLowerCase();
  const ranks = new Map<string, number>();
  for (const path of paths) {
    const name = basenameOf(path).toLowerCase();
    const stem = name.replace(/\.[^.]*$/, '');
    let rank = 0;
    if (alwaysShown.has(path)) rank = 5;
    else if (lowered.includes(path.toLowerCase())) rank = 4;
    else if (name.includes('.') && words.has(name)) rank = 3;
    else if (stem.length >= 4 && words.has(stem)) rank = 2;
    else if (MANIFESTS.has(path)) rank = 1;
    ranks.set(path, rank);
  }
  const namedFolders = new Set(paths.filter((path) => (ranks.get(path) ?? 0) >= 2).map(folderOf));
  for (const path of paths) if (ranks.get(path) === 0 && namedFolders.has(folderOf(path))) ranks.set(path, 0.5);
  return ranks;
}

/**
 * Every path, or, when that is longer than `limit`, folders of three or more files collapsed into
 * one line (`src/lib/ (12 files)`) at the deepest level that fits.
 */
export function pathListing(paths: readonly string[], limit: number): string[] {
  const full = paths.map((path) => `- ${path}`);
  if (full.join('\n').length <= limit) return full;
  let lines = full;
  for (let depth = 6; depth >= 1; depth--) {
    const prefix = (path: string) => {
      const parts = path.split('/');
      return parts.length > depth ? `${parts.slice(0, depth).join('/')}/` : undefined;
    };
    const counts = new Map<string, number>();
    for (const path of paths) {
      const folder = prefix(path);
      if (folder !== undefined) counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
    const seen = new Set<string>();
    lines = [];
    for (const path of paths) {
      const folder = prefix(path);
      const count = folder === undefined ? 0 : (counts.get(folder) ?? 0);
      if (folder === undefined || count < 3) lines.push(`- ${path}`);
      else if (!seen.has(folder)) {
        seen.add(folder);
        lines.push(`- ${folder} (${count} files)`);
      }
    }
    if (lines.join('\n').length <= limit) return lines;
  }
  return lines;
}

/**
 * Picks the files a prompt carries. `size(path)` is what a file costs in the prompt (its block);
 * `alwaysShown` (the AGENTS.md) is shown whatever its rank. Deterministic for the same input.
 */
export function choosePromptFiles(
  paths: readonly string[],
  size: (path: string) => number,
  ticket: string,
  options: { budget?: number; alwaysShown?: readonly string[] } = {},
): PromptFiles {
  const budget = options.budget ?? PROMPT_BUDGET_CHARS;
  const sorted = [...paths].sort(compareCodeUnits);
  const total = sorted.reduce((sum, path) => sum + size(path), 0);
  if (total <= budget) return { listing: sorted.map((path) => `- ${path}`), shown: sorted, partial: false };
  const treeLines = pathListing(sorted, Math.floor(budget / 4));
  let room = budget - treeLines.join('\n').length;
  const ranks = rankFiles(sorted, ticket, new Set(options.alwaysShown ?? []));
  // Highest rank first; within a rank, smaller files first so more of them fit.
  const order = [...sorted].sort(
    (left, right) => (ranks.get(right) ?? 0) - (ranks.get(left) ?? 0) || size(left) - size(right) || compareCodeUnits(left, right),
  );
  const shown: string[] = [];
  for (const path of order) {
    const cost = size(path);
    if (cost <= room || (ranks.get(path) ?? 0) === 5) {
      shown.push(path);
      room -= cost;
    }
  }
  return { listing: treeLines, shown: shown.sort(compareCodeUnits), partial: true };
}
