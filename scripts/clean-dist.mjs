// Removes every package's build (and the bench's), so the next build starts from nothing: no output of a
// deleted or renamed source file survives.
import { readdirSync, rmSync } from 'node:fs';

const packages = new URL('../packages/', import.meta.url);
for (const folder of readdirSync(packages)) rmSync(new URL(`${folder}/dist`, packages), { recursive: true, force: true });
rmSync(new URL('../bench/dist', import.meta.url), { recursive: true, force: true });
