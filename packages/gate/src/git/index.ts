// What leaves this room: the names other rooms of the gate, and its package index, import.
export { readGit, tryReadGit } from './commit-change.js';
export type { GitReader } from './commit-change.js';
export { gitRoot } from './pre-commit.js';
export { workTreeChanges } from './work-tree-changes.js';
export { VERIFY_FILE_LIMIT, rangeCommits, rangeTreeChange } from './range-changes.js';
export type { ChangedFile, FileRead, RangeChange } from './range-changes.js';
export type { InstallOutput } from './install-files.js';
