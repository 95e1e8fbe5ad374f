import type { Product } from '../features/catalog/list-products.ts';

/** The text of a product card in the catalog list. */
export function productCard(product: Product & { price: string }): string {
  return `${product.name} (${product.sku}): ${product.price}`;
}
