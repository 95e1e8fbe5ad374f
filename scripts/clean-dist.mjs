// Packing starts from an empty dist/, so no output of a deleted or renamed source file is shipped.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
