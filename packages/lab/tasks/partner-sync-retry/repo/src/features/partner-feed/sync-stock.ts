import { getJson } from '../../lib/http.ts';
import type { RequestOptions } from '../../lib/http.ts';

export interface StockLevel {
  sku: string;
  available: number;
}

/** Pulls the partner's stock feed and keeps only SKUs we sell. */
export async function syncStock(feedUrl: string, knownSkus: Set<string>, options: RequestOptions = {}): Promise<StockLevel[]> {
  const feed = await getJson<{ items: StockLevel[] }>(feedUrl, { timeoutMs: 10_000, ...options });
  return feed.items.filter((item) => knownSkus.has(item.sku));
}
