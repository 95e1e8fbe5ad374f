import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNodeLine } from '../clients.js';

/**
 * The Node lines the end-to-end tests run holdfast's CLI, the installed hook and the client on (issue 44).
 * Each is the node running the tests when it is that line, else Node's own binary from the npm registry
 * in the agent cache (ensureNodeLine), never a project dependency. A test group picks one with
 * `nodeOfLine`, installs with `holdfastOn(node, …)` (the clone's `.holdfast/hook-location` then names that
 * node for the hook and git's hooks) and runs the client with `runScenario({ node })`.
 */
export type TestNodeLine = 'node-20' | 'node-24';

/** How a test title names a line: `Node 20`, `Node 24`. */
export function nodeLineTitle(line: TestNodeLine): string {
  return line === 'node-24' ? 'Node 24' : 'Node 20';
}

/** The major version a node binary reports when it runs (not what its path says). */
function nodeMajor(node: string): number {
  return Number(execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).split('.')[0]);
}

/**
 * The node binary of a tested line, checked by running it, so a group named for a line cannot silently
 * run on another: a test that says Node 24 and ran on Node 20 fails here. The node running the tests
 * serves its own line; another line comes from the agent cache (so `npm test` on Node 22 or 24 still
 * runs the Node 20 groups on Node 20).
 */
export async function nodeOfLine(line: TestNodeLine): Promise<string> {
  const wanted = line === 'node-24' ? 24 : 20;
  const node = Number(process.versions.node.split('.')[0]) === wanted ? process.execPath : await ensureNodeLine(line);
  const major = nodeMajor(node);
  if (major !== wanted) {
    throw new Error(
      `The end-to-end tests' ${line} line is ${node}, which is Node ${major}: remove its folder from the agent cache ` +
        '(HOLDFAST_AGENT_CACHE or ~/.cache/holdfast/agents) so it is fetched again.',
    );
  }
  return node;
}

/** The node this clone's installed hook (and git's hooks) run: the first line of `.holdfast/hook-location`, undefined when there is none. */
export function installedHookNode(repo: string): string | undefined {
  const location = join(repo, '.holdfast', 'hook-location');
  return existsSync(location) ? readFileSync(location, 'utf8').split('\n')[0] : undefined;
}
