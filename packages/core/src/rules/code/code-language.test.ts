import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DYNAMIC_PACKAGES } from './code-language.js';

function manifest(folder: string): { dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: unknown } {
  return JSON.parse(readFileSync(new URL(`../../../../${folder}/package.json`, import.meta.url), 'utf8')) as ReturnType<typeof manifest>;
}

describe("ast-grep's language packages", () => {
  const named = Object.fromEntries(Object.values(DYNAMIC_PACKAGES).map(({ name, version }) => [name, version]));

  it('are optional peers of the core, at the versions its install hint names', () => {
    const core = manifest('core');
    expect(core.peerDependencies).toEqual(named);
    expect(core.peerDependenciesMeta).toEqual(Object.fromEntries(Object.keys(named).map((name) => [name, { optional: true }])));
    expect(Object.keys(core.dependencies ?? {}).filter((name) => name in named)).toEqual([]);
  });

  it('come with the holdfast package, so the full install reads every language', () => {
    const cli = manifest('cli');
    expect(Object.fromEntries(Object.entries(cli.dependencies ?? {}).filter(([name]) => name in named))).toEqual(named);
  });
});
