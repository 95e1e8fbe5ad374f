import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, sep } from 'node:path';

/*
 * Hook processes a test starts (git hooks, the bundled entry, the CLI) keep their mirrors under the
 * machine's real seal home: their seal home cannot be moved by anything a process can set, on purpose
 * (state-seal.ts). After the run, the mirrors this run made for projects in the temp folder are
 * removed: a mirror folder names its project in its `project` file, and only one made since the run
 * began (its note is as old as the folder), for a project under the temp folder that is gone, is the
 * run's to remove. A project still there can be another run's on the same machine (a second checkout's
 * tests at the same time): removing its mirror would drop the baseline its gate compares with. The key
 * itself stays.
 */
export function setup(): () => void {
  const began = Date.now();
  return () => {
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
        if (statSync(join(folder, 'project')).mtimeMs < began) continue;
        const project = readFileSync(join(folder, 'project'), 'utf8').trimEnd();
        if (!project.startsWith(temp) || existsSync(project)) continue;
        rmSync(folder, { recursive: true, force: true });
      } catch {
        // not one of the run's (no note of its project), or removed meanwhile
      }
    }
  };
}
