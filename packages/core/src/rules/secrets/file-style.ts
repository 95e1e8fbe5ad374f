/**
 * How a file writes values. In `code` an unquoted right-hand side is an expression (`getToken()`,
 * `process.env.X`), never a literal; in `config` (.env, YAML, shell, INI) it is the literal itself;
 * `dockerfile` is config plus the space form `ENV KEY value`.
 */
export type FileStyle = 'code' | 'config' | 'dockerfile';

const CODE_EXTENSIONS = new Set([
  'ts',
  'tsx',
  'mts',
  'cts',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'json',
  'jsonc',
  'json5',
  'py',
  'rb',
  'go',
  'java',
  'kt',
  'kts',
  'scala',
  'cs',
  'php',
  'rs',
  'swift',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'm',
  'dart',
  'lua',
  'vue',
  'svelte',
  'astro',
  'groovy',
  'gradle',
  'tf',
  'hcl',
  'sql',
  'ex',
  'exs',
  'erl',
  'clj',
  'r',
  'jl',
]);

export function fileStyleOf(filePath: string): FileStyle {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  const lowerName = name.toLowerCase();
  if (lowerName === 'dockerfile' || lowerName.startsWith('dockerfile.') || lowerName.endsWith('.dockerfile') || lowerName === 'containerfile') {
    return 'dockerfile';
  }
  const dot = lowerName.lastIndexOf('.');
  const extension = dot > 0 ? lowerName.slice(dot + 1) : '';
  return CODE_EXTENSIONS.has(extension) ? 'code' : 'config';
}
