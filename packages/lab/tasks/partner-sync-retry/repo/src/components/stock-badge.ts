/** The badge on a product card. */
export function stockBadge(available: number): 'in stock' | 'low stock' | 'sold out' {
  if (available <= 0) return 'sold out';
  return available < 5 ? 'low stock' : 'in stock';
}
