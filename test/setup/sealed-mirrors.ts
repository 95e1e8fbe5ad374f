import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, sep } from 'node:path';

/*
 * Hook processes a test starts (git hooks, the bundled entry, the CLI) keep their mirrors under the
 * machine's real seal home: their seal home cannot be moved by anything a process can set, on purpose
 * (state-seal.ts). After the run, the mirrors this run made for projects in the temp folder are
 * removed: a mirror folder names its project in its `project` file, and one made since the run began
 * (its note is as old as the folder), for a project under the temp folder, is the run's. Unless another
 * test run on the same machine (a second checkout's tests at the same time) had begun by then: that
 * mirror may be the other run's, and removing it would drop the baseline its gate compares with, so it
 * is removed only once its project is gone. Each run leaves a note of itself (its pid and start) in the
 * temp folder while it runs. The key itself stays.
 */
const RUNS = join(tmpdir(), 'holdfast-test-runs');

/** When each other test run still going began (ms); a note whose process is gone is left over from a killed run. */
function otherRunsBegan(own: string): number[] {
  let notes: string[];
  try {
    notes = readdirSync(RUNS);
  } catch {
    return [];
  }
  return notes.flatMap((note) => {
    if (note === own) return [];
    const [pid, began] = note.split('-').map(Number);
    try {
      process.kill(pid as number, 0);
    } catch {
      rmSync(join(RUNS, note), { force: true });
      return [];
    }
    return Number.isFinite(began) ? [began as number] : [];
  });
}

export function setup(): () => void {
  const began = Date.now();
  const own = `${process.pid}-${began}`;
  mkdirSync(RUNS, { recursive: true });
  writeFileSync(join(RUNS, own), '');
  return () => {
    rmSync(join(RUNS, own), { force: true });
    const shared = Math.min(...otherRunsBegan(own));
    const projects = join(userInfo().homedir, '.local', 'state', 'holdfast', 'projects');
    const temp = `${realpathSync(tmpdir())}${sep}`;
    let names: string[];
    try {
      names = readdirSync(projects);
    } catch {
      return;
    }
    for (const name of names) {
      const folder = join(projects, name);
      try {
        const made = statSync(join(folder, 'project')).mtimeMs;
        if (made < began) continue;
        const project = readFileSync(join(folder, 'project'), 'utf8').trimEnd();
        if (!project.startsWith(temp)) continue;
        if (made >= shared && existsSync(project)) continue;
        rmSync(folder, { recursive: true, force: true });
      } catch {
        // not one of the run's (no note of its project), or removed meanwhile
      }
    }
  };
}
