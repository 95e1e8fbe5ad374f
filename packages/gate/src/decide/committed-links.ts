import { posix } from 'node:path';

/**
 * Why a committed symbolic link (mode 120000) at `path` pointing at `target` is refused, or undefined
 * when it stays inside the repository and out of `.git/`. A checkout writes the link, and whatever then
 * writes through it (a build, a test, the next agent) writes outside the project or into git's own
 * hooks and config: `src/hook -> ../.git/hooks/pre-commit`, `src/passwd -> /etc/passwd`. Judged on the
 * link's text alone, never by following it.
 */
export function linkFinding(path: string, target: string): string | undefined {
  if (target === '' || target.includes('\0')) return `a symbolic link with no readable target`;
  if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\'))
    return `a symbolic link to ${JSON.stringify(target)}, outside the repository; commit the file itself`;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target.replace(/\\/g, '/')));
  if (resolved === '..' || resolved.startsWith('../'))
    return `a symbolic link to ${JSON.stringify(target)}, which leaves the repository; commit the file itself`;
  const first = resolved.split('/')[0]?.toLowerCase() ?? '';
  if (first === '.git' || first === 'git~1')
    return `a symbolic link to ${JSON.stringify(target)}, which points into .git/ (git's hooks and config); commit the file itself`;
  return undefined;
}
