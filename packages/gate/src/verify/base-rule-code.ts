import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Rulebook } from '@holdfast/core/contract';
import { InputError } from '@holdfast/core/contract';
import type { CustomCheckLauncher } from '@holdfast/core/rules';
import { ruleCodeFiles } from '@holdfast/core/rules';
import { nodeOs } from '../io/index.js';
import { readGit } from '../git/index.js';
import type { GitReader } from '../git/index.js';
import { BUBBLEWRAP_HINT, confinementArgs, credentialPlaces, findBubblewrap } from '../exec/index.js';
import type { ConfinementPolicy } from '../exec/index.js';

/** A folder of rule code holds few files; a module at the top of a big folder (src/) gets only its named files. */
const MAX_FOLDER_FILES = 1000;

/** The base's rule code, written out where verify owns it, and how a custom check is started there. */
export interface BaseRuleCode {
  readonly launcher: CustomCheckLauncher;
  /** The base's files written out, relative to `launcher.root`. */
  readonly files: readonly string[];
  remove(): void;
}

interface TreeEntry {
  readonly mode: string;
  readonly id: string;
  readonly path: string;
}

function treeEntries(reader: GitReader, base: string, paths: readonly string[]): TreeEntry[] {
  const listed = readGit(reader, ['ls-tree', '-r', '-z', '--full-tree', base, '--', ...paths]).toString('utf8');
  return listed
    .split('\0')
    .filter((line) => line !== '')
    .flatMap((line) => {
      const tab = line.indexOf('\t');
      const [mode = '', type = '', id = ''] = line.slice(0, tab).split(' ');
      // Blobs only: a link or a submodule in a folder of rule code is not code verify runs.
      return type === 'blob' && (mode === '100644' || mode === '100755') ? [{ mode, id, path: line.slice(tab + 1) }] : [];
    });
}

/**
 * What is written out: each named file's folder from the base (a module imports its helpers by a
 * relative path), or only the named files when one sits at the top of the project or in a large folder.
 */
function entriesToWrite(reader: GitReader, base: string, named: readonly string[]): TreeEntry[] {
  const chosen = new Map<string, TreeEntry>();
  for (const entry of treeEntries(reader, base, named)) chosen.set(entry.path, entry);
  for (const folder of new Set(named.map((path) => posix.dirname(path)).filter((folder) => folder !== '.'))) {
    const inFolder = treeEntries(reader, base, [`${folder}/`]);
    if (inFolder.length <= MAX_FOLDER_FILES) for (const entry of inFolder) chosen.set(entry.path, entry);
  }
  return [...chosen.values()];
}

/**
 * The confinement of the base's rule code (the gate's one policy, containment.ts): every namespace new
 * and the network too but loopback, the system read-only with the host's credentials masked, a private
 * /tmp, the written-out code read-only and nothing of the project writable; no secret-looking variable
 * (the custom check passes only PATH, HOME and LANG). Its process group dies with verify.
 */
function ruleCodePolicy(code: string, project: string, home: string): ConfinementPolicy {
  return {
    network: 'loopback',
    secretVariables: 'dropped',
    hidden: ['/tmp'],
    readable: [code],
    writable: [],
    readOnlyOver: [],
    masked: credentialPlaces(home !== '' ? [home] : [], [project]),
    env: { TMPDIR: '/tmp' },
    cwd: code,
    newSession: true,
  };
}

/**
 * Writes out every file the base's rulebook names as rule code (each `custom` check's module, program
 * and scripts, with their folders), read from the base commit with git into a folder of verify's own,
 * and returns the launcher that starts each check there inside bubblewrap. Why: the authority runs
 * the base's rule code, never the head's (a change could rewrite the check that judges it), and runs
 * it where it cannot write or reach the network. Undefined when the rulebook has no custom check; a
 * machine without bubblewrap is refused, as every confined run of the gate is.
 */
export function baseRuleCode(reader: GitReader, base: string, rulebook: Rulebook): BaseRuleCode | undefined {
  const custom = rulebook.rules.filter((rule) => rule.check.kind === 'custom');
  if (custom.length === 0) return undefined;
  const bwrap = findBubblewrap(reader.env);
  if (bwrap === undefined) {
    throw new InputError(
      'E_VERIFY_CONFINEMENT',
      `holdfast verify: the base's rulebook has custom checks (${custom.map((rule) => rule.id).join(', ')}), which verify runs only confined, and bubblewrap (bwrap) is not installed: ${BUBBLEWRAP_HINT}.`,
    );
  }
  const scratch = realpathSync(mkdtempSync(join(nodeOs().tmpdir(), 'holdfast-verify-rule-code-')));
  const remove = () => rmSync(scratch, { recursive: true, force: true });
  try {
    const code = join(scratch, 'base');
    mkdirSync(code);
    const entries = entriesToWrite(reader, base, ruleCodeFiles(rulebook));
    for (const entry of entries) {
      const target = join(code, entry.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, readGit(reader, ['cat-file', 'blob', entry.id]));
      chmodSync(target, entry.mode === '100755' ? 0o555 : 0o444);
    }
    const policy = ruleCodePolicy(code, realpathSync(reader.cwd), reader.env.HOME ?? '');
    const launcher: CustomCheckLauncher = {
      root: code,
      wrap: (command) => ({ file: bwrap, args: [...confinementArgs(policy), command.file, ...command.args] }),
    };
    return { launcher, files: entries.map((entry) => entry.path).sort(), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
