// What leaves this room: the names other rooms of the gate, and its package index, import.
export { commitChange, commitParents, readGit, treeChange, tryReadGit } from './commit-change.js';
export type { GitReader, TreeChange } from './commit-change.js';
export { gitRoot } from './pre-commit.js';
export { workTreeChanges } from './work-tree-changes.js';
export { VERIFY_FILE_LIMIT, rangeCommits, rangeTreeChange } from './range-changes.js';
export type { RangeCommit, TooLarge } from './range-changes.js';
