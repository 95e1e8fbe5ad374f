// `npm test`: Node's own test runner over src/**/*.test.ts, no dependencies.
// `--integration` runs the *.integration.test.ts files instead (they need the services they name).
// Node runs .ts files itself from 22.18 / 23.6 (type stripping), and from 22.6 behind a flag. On an
// older Node it runs them only if a type-stripping hook is preloaded (NODE_OPTIONS=--import=…);
// without one it says so instead of passing silently.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const integration = process.argv.includes('--integration');

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    if (!entry.name.endsWith('.test.ts')) return [];
    return entry.name.endsWith('.integration.test.ts') === integration ? [path] : [];
  });
}

async function loadsTypeScript() {
  const dir = mkdtempSync(join(tmpdir(), 'ts-probe-'));
  const probe = join(dir, 'probe.ts');
  writeFileSync(probe, 'export const ok: boolean = true;\n');
  try {
    return (await import(pathToFileURL(probe).href)).ok === true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const builtIn = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
const behindFlag = !builtIn && (major === 23 || (major === 22 && minor >= 6));
if (!builtIn && !behindFlag && !(await loadsTypeScript())) {
  process.stderr.write(`npm test needs Node 22.6 or newer to run TypeScript tests (this is ${process.version}).\n`);
  process.exit(1);
}
const flags = behindFlag ? ['--experimental-strip-types', '--no-warnings'] : [];
const result = spawnSync(process.execPath, [...flags, '--test', ...testFiles('src').sort()], { stdio: 'inherit' });
process.exit(result.status ?? 1);
