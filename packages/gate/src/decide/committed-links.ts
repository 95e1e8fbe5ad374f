import { posix } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import type { CheckoutRead } from '../io/index.js';

/**
 * Why a committed symbolic link (mode 120000) at `path` pointing at `target` is refused, or undefined
 * when it stays inside the repository and out of `.git/`. A checkout writes the link, and whatever then
 * writes through it (a build, a test, the next agent) writes outside the project or into git's own
 * hooks and config: `src/hook -> ../.git/hooks/pre-commit`, `src/passwd -> /etc/passwd`. Judged on the
 * link's text alone, never by following it.
 *
 * Text alone is sound only when no other link can change where the text leads. Two rules make it so:
 * no link to the repository's top folder (`src/up -> ..`, under which `src/up/.git/hooks` is git's
 * hooks: `src/hook -> up/.git/hooks/pre-commit` reads as a path inside src/), and no `..` after a
 * folder the target named (`src/hook -> a/../.git/hooks`: when `a` is a link, `..` climbs from where
 * `a` leads, not from src/). A link's own folder is a real folder (git keeps no entry below a link),
 * so leading `..` climb where the text says, and what is left only descends from there.
 */
function linkFinding(path: string, target: string, through?: string): string | undefined {
  if (through !== undefined)
    return `a symbolic link to ${JSON.stringify(target)} through ${through}, itself a link, so its text does not say where it leads; commit the file itself`;
  if (target === '' || target.includes('\0')) return `a symbolic link with no readable target`;
  if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\'))
    return `a symbolic link to ${JSON.stringify(target)}, outside the repository; commit the file itself`;
  const slashed = target.replace(/\\/g, '/');
  const resolved = posix.normalize(posix.join(posix.dirname(path), slashed));
  if (resolved === '..' || resolved.startsWith('../'))
    return `a symbolic link to ${JSON.stringify(target)}, which leaves the repository; commit the file itself`;
  if (resolved === '.' || resolved === './')
    return `a symbolic link to ${JSON.stringify(target)}, the repository's top folder, through which .git/ is reachable under another name; commit the file itself`;
  const parts = slashed.split('/').filter((part) => part !== '' && part !== '.');
  const climbsAfterFolder = parts.some((part, index) => part === '..' && parts.slice(0, index).some((before) => before !== '..'));
  if (climbsAfterFolder)
    return `a symbolic link to ${JSON.stringify(target)}, which climbs out of a folder it named (through another link that leads anywhere); write the target without the detour`;
  const first = resolved.split('/')[0]?.toLowerCase() ?? '';
  if (first === '.git' || first === 'git~1')
    return `a symbolic link to ${JSON.stringify(target)}, which points into .git/ (git's hooks and config); commit the file itself`;
  return undefined;
}

/**
 * A written entry as the round's action, read as a checkout gives it back (checkoutRead): a file's
 * text, its reason in `undecodable` when it is not text; a link's target, its reason in `links` when
 * linkFinding refuses it. One reading for the git hooks, the after-call check of a call's commits and verify.
 */
export function checkoutAction(path: string, read: CheckoutRead, undecodable: Map<string, string>, links: Map<string, string>): Action {
  if (read.kind === 'link') {
    const why = linkFinding(path, read.target, read.through);
    if (why !== undefined) links.set(path, why);
    return { type: 'write', path, content: read.target };
  }
  if (read.undecodable !== undefined) undecodable.set(path, read.undecodable);
  return { type: 'write', path, content: read.text };
}
