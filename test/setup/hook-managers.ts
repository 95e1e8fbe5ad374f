import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The hook managers the person-commit tests drive: the real husky and lefthook from npm. They are
 * installed into a test cache (as the agent clients are), not as devDependencies: lefthook's
 * postinstall runs `lefthook install`, which would rewrite this repository's own git hooks on every
 * `npm ci`; here npm runs with --ignore-scripts (lefthook's binary is in its platform package, which
 * needs no script).
 */
export const HOOK_MANAGERS = { husky: '9.1.7', lefthook: '2.2.4' } as const;

function cacheFolder(): string {
  const configured = process.env.HOLDFAST_AGENT_CACHE;
  const root = configured !== undefined && configured !== '' ? join(configured, '..', 'hook-managers') : join(homedir(), '.cache', 'holdfast', 'hook-managers');
  return join(root, `husky@${HOOK_MANAGERS.husky}+lefthook@${HOOK_MANAGERS.lefthook}`);
}

export interface HookManagerBins {
  /** husky's CLI (`node HUSKY` in a project sets core.hooksPath=.husky/_ and writes .husky/_/). */
  readonly husky: string;
  /** lefthook's native binary. */
  readonly lefthook: string;
}

const DONE = '.holdfast-installed';

/** Installs both into the cache once (a lock folder keeps two test files from racing) and returns their paths. */
export async function ensureHookManagers(): Promise<HookManagerBins> {
  const folder = cacheFolder();
  const bins = {
    husky: join(folder, 'node_modules', 'husky', 'bin.js'),
    lefthook: join(folder, 'node_modules', `lefthook-${process.platform}-${process.arch}`, 'bin', 'lefthook'),
  };
  const done = () => existsSync(join(folder, DONE)) && existsSync(bins.husky) && existsSync(bins.lefthook);
  if (done()) return bins;
  mkdirSync(join(folder, '..'), { recursive: true });
  const lock = `${folder}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (done()) return bins;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (done()) return bins;
    const packages = Object.entries(HOOK_MANAGERS).map(([name, version]) => `${name}@${version}`);
    try {
      execFileSync('npm', ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', ...packages], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_loglevel: 'error' },
      });
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? error);
      throw new Error(
        `Could not install ${packages.join(' and ')} (the hook managers the person-commit tests drive) into ${folder}: ${said.trim()}\n` +
          `Install them yourself with \`npm install --prefix ${folder} --no-save --ignore-scripts ${packages.join(' ')}\` where the npm registry is reachable.`,
      );
    }
    if (!existsSync(bins.lefthook))
      throw new Error(`npm installed lefthook into ${folder} but its binary ${bins.lefthook} is missing (its platform package was not installed).`);
    writeFileSync(join(folder, DONE), `${packages.join(' ')}\n`);
    return bins;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
