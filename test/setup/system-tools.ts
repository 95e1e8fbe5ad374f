import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The system programs the tests drive for real: Chromium for the browser tests (playwright-core
 * downloads no browser), git for the sandboxes and the gate, bubblewrap for isolation, Redis for the
 * queue (each queue test starts its own server on a free loopback port), pytest, Go, Cargo and pnpm
 * for the trials on real toolchains. A fresh machine with only
 * Node gets them here, from Debian's packages, when it can install them (root with apt-get);
 * otherwise the run stops naming what to install. Never a silent skip.
 */
interface SystemTool {
  readonly program: string;
  readonly debianPackage: string;
  readonly why: string;
}

const TOOLS: readonly SystemTool[] = [
  { program: '/usr/bin/chromium', debianPackage: 'chromium', why: 'the browser tests (headless Chromium)' },
  { program: 'git', debianPackage: 'git', why: 'the sandbox and gate tests' },
  { program: 'bwrap', debianPackage: 'bubblewrap', why: 'the sandbox isolation tests' },
  { program: 'redis-server', debianPackage: 'redis-server', why: 'the queue tests (holdfast run --queue, holdfast worker)' },
  { program: 'pytest', debianPackage: 'python3-pytest', why: 'the Python trial on a real toolchain (test/e2e/trial-toolchains.test.ts)' },
  { program: 'go', debianPackage: 'golang-go', why: 'the Go trial on a real toolchain (test/e2e/trial-toolchains.test.ts)' },
  { program: 'cargo', debianPackage: 'cargo', why: 'the Rust trial on a real toolchain (test/e2e/trial-toolchains.test.ts)' },
];

/** Programs that come from npm rather than Debian: pnpm (Debian has none), installed globally with npm. */
const NPM_TOOLS: readonly { readonly program: string; readonly npmPackage: string; readonly why: string }[] = [
  { program: 'pnpm', npmPackage: 'pnpm@10', why: 'the TypeScript trial with pnpm and vitest (test/e2e/trial-toolchains.test.ts)' },
];

function found(program: string): boolean {
  const candidates = program.includes('/') ? [program] : (process.env.PATH ?? '').split(delimiter).map((folder) => join(folder, program));
  return candidates.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function canInstall(): boolean {
  return process.getuid?.() === 0 && found('apt-get');
}

function setupNpmTools(): void {
  const missing = NPM_TOOLS.filter((tool) => !found(tool.program));
  if (missing.length === 0) return;
  if (process.getuid?.() === 0) {
    process.stderr.write(
      `holdfast tests: installing ${missing.map((tool) => tool.npmPackage).join(', ')} with npm (needed by ${missing.map((tool) => tool.why).join('; ')})\n`,
    );
    execFileSync('npm', ['install', '-g', ...missing.map((tool) => tool.npmPackage)], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const still = NPM_TOOLS.filter((tool) => !found(tool.program));
  if (still.length > 0)
    throw new Error(
      `holdfast tests need ${still.map((tool) => `${tool.program} for ${tool.why}`).join('; ')}, and this machine cannot install it itself (not root). Install it (npm install -g ${still.map((tool) => tool.npmPackage).join(' ')}, or corepack enable) and run npm test again.`,
    );
}

export function setup(): void {
  setupNpmTools();
  const missing = TOOLS.filter((tool) => !found(tool.program));
  if (missing.length === 0) return;
  const names = missing.map((tool) => tool.debianPackage);
  if (canInstall()) {
    process.stderr.write(`holdfast tests: installing ${names.join(', ')} from Debian's packages (needed by ${missing.map((tool) => tool.why).join('; ')})\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...names], { stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  const still = TOOLS.filter((tool) => !found(tool.program));
  if (still.length > 0) {
    const lines = still.map((tool) => `  ${tool.debianPackage.padEnd(11)} for ${tool.why} (looked for ${tool.program})`);
    throw new Error(
      `holdfast tests need these system packages, and this machine cannot install them itself (not root, or no apt-get):\n${lines.join('\n')}\nInstall them (Debian/Ubuntu: sudo apt-get install ${still.map((tool) => tool.debianPackage).join(' ')}) and run npm test again.`,
    );
  }
}
