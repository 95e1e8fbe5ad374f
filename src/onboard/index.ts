export { OnboardError } from './onboard-error.js';
export type { OnboardErrorCode } from './onboard-error.js';
export { DEFAULT_MAX_REPO_BYTES, MAX_FILE_BYTES, snapshotRepo } from './repo-snapshot.js';
export type { RepoSnapshot, SkippedFile, SnapshotOptions } from './repo-snapshot.js';
export { defaultTaskId, defaultTitle, writeTaskFromRepo } from './write-task.js';
export type { NewTask, NewTaskOptions } from './write-task.js';
