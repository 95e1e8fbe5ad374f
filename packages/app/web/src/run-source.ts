/** Which run the page shows: a saved run file, or a run this server is executing. Kept in the URL hash. */
export type RunSource = { kind: 'file'; name: string } | { kind: 'live'; runId: string };

export function sourceFromHash(hash: string): RunSource | undefined {
  // What follows `?` is the view (tab, round, filters: see view-state.ts); names are URL-encoded, so `?` is not in them.
  const match = /^#\/(runs|live)\/([^?]+)/.exec(hash);
  if (match === null) return undefined;
  const value = decodeURIComponent(match[2] ?? '');
  if (value === '') return undefined;
  return match[1] === 'runs' ? { kind: 'file', name: value } : { kind: 'live', runId: value };
}

export function hashOfSource(source: RunSource): string {
  return source.kind === 'file' ? `#/runs/${encodeURIComponent(source.name)}` : `#/live/${encodeURIComponent(source.runId)}`;
}

export function sameSource(left: RunSource | undefined, right: RunSource | undefined): boolean {
  if (left === undefined || right === undefined) return left === right;
  return hashOfSource(left) === hashOfSource(right);
}
