import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

type LoadResult = { format: string; source?: string | Buffer; shortCircuit?: boolean };
type NextLoad = (url: string, context: { format?: string | null }) => Promise<LoadResult>;

const TYPESCRIPT = /\.(?:m?ts|tsx)$/;

/**
 * Node module hook: loads `.ts` files with their types stripped (oxc, through rolldown), the way
 * Node 22.6+ does natively. Registered only for sandbox commands on a Node without type stripping.
 */
export async function load(url: string, context: { format?: string | null }, nextLoad: NextLoad): Promise<LoadResult> {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(url)) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const source = await readFile(filename, 'utf8');
  const { transformSync } = await import('rolldown/experimental');
  const result = transformSync(filename, source, { lang: url.endsWith('x') ? 'tsx' : 'ts' });
  if (result.errors.length > 0) {
    const first = result.errors[0];
    throw new SyntaxError(`${filename}: ${first?.message ?? 'cannot strip types'}`);
  }
  return { format: 'module', source: result.code, shortCircuit: true };
}
