import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A peer tool the benchmark measures side by side, pinned to a version that runs on Node 20. */
export interface Peer {
  readonly name: string;
  readonly version: string;
  /** The program in node_modules/.bin. */
  readonly bin: string;
}

/** promptfoo 0.120.8: the newest release whose engines accept every Node holdfast supports (≥ 20.19). */
export const PROMPTFOO: Peer = { name: 'promptfoo', version: '0.120.8', bin: 'promptfoo' };

/** Peers live outside the project (never in its node_modules or lockfile): HOLDFAST_PEER_CACHE or ~/.cache/holdfast/peers. */
function peerCache(env: NodeJS.ProcessEnv = process.env): string {
  return env['HOLDFAST_PEER_CACHE'] ?? join(homedir(), '.cache', 'holdfast', 'peers');
}

/** The peer's program, installed with npm into its own folder of the cache the first time it is asked for. */
export function installPeer(peer: Peer, log: (line: string) => void): string {
  const folder = join(peerCache(), `${peer.name}-${peer.version}`);
  const program = join(folder, 'node_modules', '.bin', peer.bin);
  if (existsSync(program)) return program;
  mkdirSync(folder, { recursive: true });
  log(`installing ${peer.name}@${peer.version} into ${folder} (once)…`);
  const installed = spawnSync('npm', ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', `${peer.name}@${peer.version}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (installed.status !== 0 || !existsSync(program))
    throw new Error(`npm could not install ${peer.name}@${peer.version} into ${folder} (exit ${String(installed.status)})`);
  return program;
}
