// What leaves this room: the names other rooms of the gate, and its package index, import.
export { commitTreeRunner, rerunRequiredOnTree } from './commit-rerun.js';
export type { RunOnCommitTree } from './commit-rerun.js';
export { BUBBLEWRAP_HINT, EXEC_GATE_DIR, confinementArgs, credentialPlaces, findBubblewrap, findProgram, inside, installationOf } from './containment.js';
export type { ConfinementPolicy } from './containment.js';
export { containmentChecks } from './containment-doctor.js';
export { execAgent } from './exec-agent.js';
export { askBroker, brokerSocket, isReadOnlyMount } from './gate-broker-client.js';
export { HOOK_ENTRY_VARIABLE, HOOK_NODE_VARIABLE, holdfastInstallation, hookEntryPath } from './holdfast-installation.js';
export { confirmOnWorkTree } from './run-confirmation.js';
export type { ConfirmRun } from './run-confirmation.js';
export { runOnTree } from './tree-rerun.js';
export type { TreeRunDeadline } from './tree-rerun.js';
