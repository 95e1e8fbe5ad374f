// What leaves this room: the names other rooms of the gate, and its package index, import.
export { removeFile, toSlashes, uniqueSuffix, withTemporaryName, writeAtomically } from './atomic-file.js';
export { blobText } from './blob-text.js';
export { ByteStream } from './byte-stream.js';
export { checkoutRead, linksThrough, readCheckoutEntries } from './checkout-blobs.js';
export type { CheckoutRead } from './checkout-blobs.js';
export { reencodedEntries } from './reencoded-entries.js';
export { attributeFolders, checkoutAttributes, parseGitAttributes } from './git-attributes.js';
export type { AttributeFile, CheckoutAttributes } from './git-attributes.js';
export { GitObjectReader } from './git-objects.js';
export type { GitObject } from './git-objects.js';
export type { BlobText } from './blob-text.js';
export { withinDeadline } from './deadline.js';
export type { Timers } from './deadline.js';
export {
  RepositoryLayoutError,
  SnapshotError,
  gitProcess,
  judgeRepositoryLayout,
  postCheckAvailable,
  runGit,
  startGit,
  startGitDetached,
  tryGit,
  userGitOutput,
} from './git-process.js';
export { childProcess, nodeCrypto, nodeNet, nodeOs } from './lazy-builtins.js';
export { readTextFromDisk, toRepoPath } from './project-files.js';
export type { ReadText } from './project-files.js';
export { describePathNotes, projectRoot, resolveActionPaths, resolveOnDisk } from './real-path.js';
export type { ProjectRoot } from './real-path.js';
export {
  AGENT_SETTINGS_FOLDERS,
  AGENT_SETTINGS_NAMES,
  AGENT_SETTINGS_SUBFOLDERS,
  AGENT_USER_SETTINGS_FOLDERS,
  inAgentSettingsSubfolder,
  inOpenCodeSettings,
  OPENCODE_SETTINGS,
} from './agent-settings.js';
export type { FinishedProcess } from './spawn-sync.js';
export { nulFields, nulPaths, pathBytes, pathText } from './path-bytes.js';
