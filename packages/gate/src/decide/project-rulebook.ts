import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** Where `holdfast init` writes a project's rulebook, relative to the project root. */
const PROJECT_RULEBOOK = 'holdfast/rulebook.yaml';
/** An environment variable naming the project's rulebook when it lives elsewhere. */
const RULEBOOK_ENV = 'HOLDFAST_RULEBOOK';

export type ProjectRulebook =
  { readonly state: 'found'; readonly path: string; readonly shown: string; readonly how: string } | { readonly state: 'missing'; readonly message: string };

/**
 * The project's own rulebook, for the hook and `install` when no `--rulebook` is given: the path
 * HOLDFAST_RULEBOOK names, else holdfast/rulebook.yaml. Never the shipped demo rulebook: a gate
 * that enforces rules the team never wrote refuses their next commit for nothing they agreed to.
 */
export function findProjectRulebook(root: string, env: NodeJS.ProcessEnv): ProjectRulebook {
  const configured = env[RULEBOOK_ENV];
  if (configured !== undefined && configured !== '') {
    const path = isAbsolute(configured) ? configured : resolve(root, configured);
    if (existsSync(path)) {
      const inside = relative(root, path);
      return { state: 'found', path, shown: inside === '' || inside.startsWith('..') ? path : inside, how: `${RULEBOOK_ENV}=${configured}` };
    }
    return {
      state: 'missing',
      message: `${RULEBOOK_ENV}=${configured} names ${path}, which does not exist; point it at your rulebook, or pass --rulebook FILE`,
    };
  }
  const path = join(root, PROJECT_RULEBOOK);
  if (existsSync(path)) return { state: 'found', path, shown: PROJECT_RULEBOOK, how: `the project's ${PROJECT_RULEBOOK}` };
  return {
    state: 'missing',
    message: `${root} has no ${PROJECT_RULEBOOK} and no --rulebook was given; run \`holdfast init\` (it drafts holdfast/rulebook.yaml from your AGENTS.md), pass --rulebook FILE, or set ${RULEBOOK_ENV}. The shipped demo rulebook is never used in your repository`,
  };
}
