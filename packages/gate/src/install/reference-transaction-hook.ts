import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HookTarget } from './hook-command.js';
import type { InstallChange } from './install.js';

/** The same markers as the pre-commit block (install.ts), so doctor and uninstall read both hooks alike. */
const BLOCK_START = '# >>> holdfast gate >>>';
const BLOCK_END = '# <<< holdfast gate <<<';
const BLOCK_PATTERN = new RegExp(`${BLOCK_START}\\n[\\s\\S]*?${BLOCK_END}\\n?`);

export const REFERENCE_TRANSACTION = 'reference-transaction';

function doubleQuoted(text: string): string {
  return `"${text.replace(/["\\$`]/g, (character) => `\\${character}`)}"`;
}

/**
 * The hook's block. It acts in the `prepared` state only (the transaction can still be aborted) and
 * is cheap for the common case: without starting node it lets through deletions, moves of
 * `refs/remotes/*` and `refs/notes/*`, and updates that make no commit newly reachable from the refs
 * under `refs/` (checkout, reset to a known commit, a branch created at an existing commit, pack-refs):
 * one `git rev-list`. HEAD is not counted as known (a `git symbolic-ref` or a write of `.git/HEAD`
 * moves it without a transaction), and a `refs/replace/*` update always goes to holdfast, which refuses it.
 * Anything else goes to holdfast, which judges each new commit and refuses with exit 1; a holdfast
 * that is gone refuses too. stdin is read once and handed back (a here-document), so a hook that
 * another tool keeps below this block still reads the updates.
 */
function referenceTransactionBlock(target: HookTarget): string {
  const args = ['git', ...(target.rulebook === undefined ? [] : ['--rulebook', target.rulebook]), REFERENCE_TRANSACTION].map(doubleQuoted).join(' ');
  const lines = [
    BLOCK_START,
    'if [ "$1" = prepared ]; then',
    'holdfast_updates=$(cat)',
    'exec 0<<holdfast_updates_end',
    '$holdfast_updates',
    'holdfast_updates_end',
    `holdfast_new=$(printf '%s\\n' "$holdfast_updates" | while read -r holdfast_old holdfast_value holdfast_ref; do case "$holdfast_ref" in refs/remotes/*|refs/notes/*) continue;; esac; case "$holdfast_value" in *[!0]*) ;; *) continue;; esac; case "$holdfast_value" in ref:*) continue;; esac; printf '%s\\n' "$holdfast_value"; done)`,
    `holdfast_replace=$(printf '%s\\n' "$holdfast_updates" | while read -r holdfast_old holdfast_value holdfast_ref; do case "$holdfast_ref" in refs/replace/*) case "$holdfast_value" in *[!0]*) printf '%s\\n' "$holdfast_ref";; esac;; esac; done)`,
    'if [ -n "$holdfast_new" ] || [ -n "$holdfast_replace" ]; then',
    "if [ -z \"$holdfast_replace\" ] && holdfast_found=$(git rev-list --max-count=1 $holdfast_new --not --exclude='refs/remotes/*' --exclude='refs/notes/*' --exclude='refs/replace/*' --glob='refs/*' -- 2>/dev/null) && [ -z \"$holdfast_found\" ]; then :; else",
    `holdfast_node=${doubleQuoted(target.node)}; holdfast_entry=${doubleQuoted(target.entry)};`,
    `if [ -x "$holdfast_node" ] && [ -f "$holdfast_entry" ]; then printf '%s\\n' "$holdfast_updates" | "$holdfast_node" "$holdfast_entry" ${args} || exit 1; else`,
    'echo "holdfast gate: cannot judge this ref update: $holdfast_node or $holdfast_entry is missing, so it is refused. Reinstall the gate from the project root with \\`npx holdfast install git\\`, then run \\`holdfast doctor\\`." >&2; exit 1; fi',
    'fi',
    'fi',
    'fi',
    BLOCK_END,
  ];
  return `${lines.join('\n')}\n`;
}

/** Whether a hook file's text holds our block (any version of it). */
export function hasHoldfastBlock(text: string): boolean {
  return BLOCK_PATTERN.test(text);
}

/** The block as installed, if any: what doctor reads node, entry and rulebook from. */
export function holdfastBlockOf(text: string): string | undefined {
  return BLOCK_PATTERN.exec(text)?.[0];
}

/**
 * Writes the reference-transaction hook into `hooksDirectory`, or adds our block right after the
 * shebang of a hook that is there (a hook manager's, a person's): ours runs first, then theirs, with
 * the same stdin. Nothing is replaced; running it twice changes nothing.
 */
export function installReferenceTransactionHook(hooksDirectory: string, target: HookTarget, shown: (path: string) => string): InstallChange {
  const path = join(hooksDirectory, REFERENCE_TRANSACTION);
  const block = referenceTransactionBlock(target);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${block}`);
    chmodSync(path, 0o755);
    return { file: shown(path), change: 'created', note: 'reference-transaction hook that refuses any ref update bringing in a commit that breaks a rule' };
  }
  const before = readFileSync(path, 'utf8');
  let after: string;
  if (BLOCK_PATTERN.test(before)) after = before.replace(BLOCK_PATTERN, block);
  else if (before.startsWith('#!')) {
    const newline = before.indexOf('\n');
    after = newline === -1 ? `${before}\n${block}` : `${before.slice(0, newline + 1)}${block}${before.slice(newline + 1)}`;
  } else after = `#!/bin/sh\n${block}${before}`;
  if (after === before) return { file: shown(path), change: 'unchanged', note: 'the holdfast block is already there' };
  writeFileSync(path, after);
  chmodSync(path, 0o755);
  return { file: shown(path), change: 'updated', note: 'holdfast block added before the existing reference-transaction hook, which still runs after it' };
}

/** Removes only our block; a file that held nothing else goes. */
export function uninstallReferenceTransactionHook(hooksDirectory: string, shown: (path: string) => string): InstallChange {
  const path = join(hooksDirectory, REFERENCE_TRANSACTION);
  if (!existsSync(path)) return { file: shown(path), change: 'unchanged', note: 'no reference-transaction hook' };
  const before = readFileSync(path, 'utf8');
  if (!BLOCK_PATTERN.test(before)) return { file: shown(path), change: 'unchanged', note: 'no holdfast block in it' };
  const after = before.replace(BLOCK_PATTERN, '');
  if (after.replace(/^#!.*\n?/, '').trim() === '') {
    rmSync(path);
    return { file: shown(path), change: 'removed', note: 'the hook held only holdfast' };
  }
  writeFileSync(path, after);
  return { file: shown(path), change: 'updated', note: 'holdfast block removed; the rest of the hook is kept' };
}

/** One line per git hook for the install report: pre-commit's change, with the reference-transaction hook's beside it. */
export function combinedChange(preCommit: InstallChange, references: InstallChange): InstallChange {
  const change =
    preCommit.change === 'unchanged' && references.change !== 'unchanged' ? (references.change === 'removed' ? 'removed' : 'updated') : preCommit.change;
  return { file: preCommit.file, change, note: `${preCommit.note}; ${references.file}: ${references.change} (${references.note})` };
}
