import { getJson } from '../../lib/http.ts';
import type { RequestOptions } from '../../lib/http.ts';

export interface Product {
  sku: string;
  name: string;
  priceCents: number;
  currency: 'EUR';
}

export function fetchProducts(catalogUrl: string, options: RequestOptions = {}): Promise<Product[]> {
  return getJson<Product[]>(`${catalogUrl}/products`, options);
}
