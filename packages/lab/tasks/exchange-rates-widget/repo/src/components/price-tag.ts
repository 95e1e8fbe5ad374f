import type { Product } from '../features/catalog/products.ts';

/** The price line under a product card, in the shop's locale. */
export function priceTag(product: Product, locale = 'de-DE'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: product.currency }).format(product.priceCents / 100);
}
