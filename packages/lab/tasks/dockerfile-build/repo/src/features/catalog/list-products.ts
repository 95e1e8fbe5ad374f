import { formatMoney } from '@acme/money';

export interface Product {
  sku: string;
  name: string;
  priceCents: number;
}

const PRODUCTS: Product[] = [
  { sku: 'MUG-01', name: 'Enamel mug', priceCents: 1450 },
  { sku: 'TEE-XL', name: 'Logo tee (XL)', priceCents: 2400 },
];

export function listProducts(): Array<Product & { price: string }> {
  return PRODUCTS.map((product) => ({ ...product, price: formatMoney(product.priceCents, 'EUR') }));
}
