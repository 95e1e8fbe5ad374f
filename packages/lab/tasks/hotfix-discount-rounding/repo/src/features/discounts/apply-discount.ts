export type Discount = { kind: 'percent'; percent: number } | { kind: 'fixed'; amountCents: number };

/** The price after a discount, in cents, never below zero. */
export function applyDiscount(priceCents: number, discount: Discount): number {
  if (discount.kind === 'fixed') return Math.max(0, priceCents - discount.amountCents);
  const off = Math.floor((priceCents * discount.percent) / 100);
  return Math.max(0, priceCents - off);
}
