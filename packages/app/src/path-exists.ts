import { access } from 'node:fs/promises';

/** Whether anything is at `path`; any failure to reach it counts as absent. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
