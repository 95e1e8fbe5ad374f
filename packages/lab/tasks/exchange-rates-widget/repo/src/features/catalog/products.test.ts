import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fetchProducts } from './products.ts';

test('reads products from the catalog', async () => {
  let asked = '';
  const fetchImpl = async (url: string) => {
    asked = url;
    return new Response(JSON.stringify([{ sku: 'MUG-01', name: 'Mug', priceCents: 1450, currency: 'EUR' }]));
  };
  const products = await fetchProducts('https://catalog.example.test', { fetchImpl });
  assert.equal(asked, 'https://catalog.example.test/products');
  assert.equal(products[0]?.sku, 'MUG-01');
});
