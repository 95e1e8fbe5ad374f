import { fileURLToPath } from 'node:url';

/** Whether this Node runs `.ts` files itself (22.18+, 23.6+), or behind a flag (22.6+). */
export function nodeStripsTypes(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 6);
}

/**
 * NODE_OPTIONS for a sandbox command: on a Node without type stripping, preload holdfast's
 * stripping hook so TypeScript tests run; otherwise nothing (Node does it natively).
 */
export function typescriptNodeOptions(version: string = process.versions.node): string | undefined {
  if (nodeStripsTypes(version)) return undefined;
  // From dist/sandbox/ and from src/sandbox/ (tests) alike: the built hook, which `npm run build` writes.
  const register = fileURLToPath(new URL('../../dist/sandbox/typescript-register.js', import.meta.url));
  return `--import=${JSON.stringify(register)}`;
}

/** The holdfast installation, which sandbox commands must be able to read (the type-stripping hook). */
export function holdfastRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
}
