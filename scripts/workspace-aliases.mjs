// Each workspace package's entries as read from its source (the `holdfast-source` condition of its
// exports map), for Vitest and Vite: tests and the web app run on the code as written, not on a build.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packages = new URL('../packages/', import.meta.url);

/** `[{ find: /^@holdfast\/core\/rules$/, replacement: '/…/packages/core/src/rules/index.ts' }, …]` */
export function workspaceAliases() {
  const aliases = [];
  for (const folder of readdirSync(packages)) {
    const manifest = JSON.parse(readFileSync(new URL(`${folder}/package.json`, packages), 'utf8'));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' ? target['holdfast-source'] : undefined;
      if (source === undefined) continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      aliases.push({ find: new RegExp(`^${escaped}$`), replacement: fileURLToPath(new URL(`${folder}/${source}`, packages)) });
    }
  }
  return aliases;
}
