import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { tryReadGit } from '../git/index.js';
import type { GitReader } from '../git/index.js';
import type { DoctorCheck } from './doctor.js';
import { gitHooksDirectory } from './install.js';
import { hasHoldfastBlock, holdfastBlockOf, REFERENCE_TRANSACTION } from './reference-transaction-hook.js';

/** A hook manager doctor recognises, and what it does to holdfast's blocks. */
interface HookManager {
  readonly name: string;
  readonly found: (hooksPath: string | undefined, hookTexts: readonly string[]) => boolean;
  readonly note: string;
}

const MANAGERS: readonly HookManager[] = [
  {
    name: 'husky',
    found: (hooksPath, texts) => (hooksPath ?? '').includes('.husky') || texts.some((text) => /husky/.test(text)),
    note: "husky regenerates .husky/_/ on `npm install` (its prepare script), which drops holdfast's blocks: run `holdfast install git` after it",
  },
  {
    name: 'lefthook',
    found: (_hooksPath, texts) => texts.some((text) => /lefthook/i.test(text)),
    note: "`lefthook install` rewrites the hook files, which drops holdfast's blocks: run `holdfast install git` after it",
  },
  {
    name: 'the pre-commit framework',
    found: (_hooksPath, texts) => texts.some((text) => /pre-commit\.com|pre_commit/.test(text)),
    note: "`pre-commit install` rewrites .git/hooks/pre-commit, which drops holdfast's block: run `holdfast install git` after it",
  },
];

/** git 2.28 added the reference-transaction hook; an older git never runs it. */
export function supportsReferenceTransaction(versionLine: string): boolean {
  const match = /git version (\d+)\.(\d+)/.exec(versionLine);
  if (match === null) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 2 || (major === 2 && minor >= 28);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hookTexts(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => !name.endsWith('.sample'))
      .flatMap((name) => {
        try {
          return [readFileSync(join(directory, name), 'utf8')];
        } catch {
          return [];
        }
      });
  } catch {
    return [];
  }
}

function chainCheck(root: string, directory: string, hook: string): DoctorCheck {
  const path = join(directory, hook);
  const shown = relative(root, path).startsWith('..') || isAbsolute(relative(root, path)) ? path : relative(root, path);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (!hasHoldfastBlock(text)) {
    return {
      area: 'git',
      ok: false,
      what: `${shown} ${text === '' ? 'is missing' : 'does not call holdfast'}: ${hook === REFERENCE_TRANSACTION ? 'merge, rebase, pull, stash, update-ref and --no-verify commits' : 'commits'} are not judged locally`,
      fix: 'run `holdfast install git` (it adds its block to a hook that is there and keeps the rest)',
    };
  }
  if (!executable(path)) return { area: 'git', ok: false, what: `${shown} is not executable, so git skips it`, fix: `chmod +x ${path}` };
  const rest = text
    .replace(holdfastBlockOf(text) ?? '', '')
    .replace(/^#!.*\n?/, '')
    .trim();
  return {
    area: 'git',
    ok: true,
    what: `${shown}: holdfast runs first${rest === '' ? '' : ', then the rest of the hook that was there'}`,
  };
}

/**
 * What doctor says about git's hooks beyond pre-commit: the folder git runs them from and where
 * that was set (core.hooksPath, local or global), the hook manager found there, whether holdfast is
 * in the chain of pre-commit and reference-transaction, and whether this git runs the latter at all.
 */
export function gitHookChecks(root: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const reader: GitReader = { cwd: root, env, userConfig: true };
  const checks: DoctorCheck[] = [];
  const version = tryReadGit(reader, ['--version'])?.toString('utf8').trim() ?? '';
  checks.push(
    supportsReferenceTransaction(version)
      ? { area: 'git', ok: true, what: `${version}: runs the reference-transaction hook (2.28 or later)` }
      : {
          area: 'git',
          ok: false,
          what: `${version === '' ? 'git does not answer' : version}: the reference-transaction hook needs git 2.28 or later, so only \`git commit\` is judged`,
          fix: 'install git 2.28 or later',
        },
  );
  const origin = tryReadGit(reader, ['config', '--show-origin', '--get', 'core.hooksPath'])?.toString('utf8').trim();
  const [where, hooksPath] = origin === undefined || origin === '' ? [undefined, undefined] : (origin.split('\t') as [string, string]);
  const directory = gitHooksDirectory(root);
  if (hooksPath === '/dev/null') {
    checks.push({
      area: 'git',
      ok: false,
      what: `core.hooksPath=/dev/null (${where ?? 'config'}): git runs no hook at all here; only \`holdfast verify\` in CI judges these commits`,
      fix: `unset it (git config --unset core.hooksPath${where?.includes('.gitconfig') === true ? ' --global' : ''}), then \`holdfast install git\``,
    });
    return checks;
  }
  checks.push({
    area: 'git',
    ok: true,
    what:
      hooksPath === undefined
        ? `git runs hooks from ${directory} (no core.hooksPath)`
        : `git runs hooks from ${directory} (core.hooksPath=${hooksPath}, set in ${where ?? 'config'})`,
  });
  const texts = hookTexts(directory);
  for (const manager of MANAGERS) {
    if (manager.found(hooksPath, texts)) checks.push({ area: 'git', ok: true, advisory: true, what: `${manager.name} manages these hooks: ${manager.note}` });
  }
  checks.push(chainCheck(root, directory, REFERENCE_TRANSACTION));
  return checks;
}
