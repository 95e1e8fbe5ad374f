import type { RuleCheck } from '@holdfast/core/contract';
import type { CheckProposal } from './propose-check.js';

function inFolder(folder: string, glob: string): string {
  return `${folder}/${glob.replace(/^\.?\//, '')}`;
}

/**
 * A check drafted from a nested rule file (`packages/x/AGENTS.md`), narrowed to that folder: agents read such a
 * file for the files under it, so its checks judge only those. A check that judges a whole session (a command, an
 * order, a required command) or confines every write (scope, an allow-list) cannot be narrowed: it stays prose with
 * the reason, rather than bind the rest of the repository to one folder's rules.
 */
function narrowed(check: RuleCheck, folder: string): RuleCheck | string {
  const within = (globs: readonly string[]) => globs.map((glob) => inFolder(folder, glob));
  switch (check.kind) {
    case 'secret':
      return { ...check, files: within(check.files ?? ['**']) };
    case 'sibling-test':
      return { ...check, modules: within(check.modules) };
    case 'forbidden-pattern':
    case 'code':
      return { ...check, files: within(check.files), exclude: within(check.exclude) };
    case 'http-helper':
      return { ...check, helper: inFolder(folder, check.helper), folders: within(check.folders) };
    case 'paths':
      if (check.allow !== undefined) return 'an allow-list confines every write of the session, and this one is written for one folder';
      return { ...check, ...(check.deny !== undefined ? { deny: within(check.deny) } : {}) };
    case 'scope':
      return 'a scope check confines every write of the session, and this one is written for one folder';
    case 'order':
    case 'command':
    case 'requires':
    case 'dependency':
    case 'custom':
      return `a ${check.kind} check judges the whole session, not the files of one folder`;
  }
}

/** The proposal for a rule of the rule file in `folder` (the repository root when undefined), its check narrowed to the folder. */
export function scopeProposal(proposal: CheckProposal, folder: string | undefined): CheckProposal {
  if (folder === undefined || proposal.kind !== 'check') return proposal;
  const check = narrowed(proposal.check, folder);
  if (typeof check === 'string') return { kind: 'prose', why: `drafted from ${folder}/'s own rule file: ${check} (${proposal.why})` };
  return { ...proposal, check, why: `${proposal.why}; for the files under ${folder}/, whose rule file it is` };
}
