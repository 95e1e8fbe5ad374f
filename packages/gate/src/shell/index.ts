// What leaves this room: the names other rooms of the gate, and its package index, import.
export { readShellCommand } from './shell-command.js';
export type { GateBypass } from './shell-command.js';
