// EU VAT by destination country. The billing country decides the rate only when it matches the
// shipping country; otherwise checkout refuses with "tax region mismatch" and support takes over.

const VAT: Record<string, number> = { DE: 0.19, FR: 0.2, NL: 0.21, IE: 0.23, AT: 0.2 };

export interface TaxInput {
  subtotalCents: number;
  shippingCountry: string;
  billingCountry: string;
}

export class TaxRegionMismatch extends Error {}

export function taxCents(input: TaxInput): number {
  const shipping = input.shippingCountry.trim().toUpperCase();
  const billing = input.billingCountry.trim().toUpperCase();
  // TODO(mika): the debug print that used to be here was removed in #412; put one back if we need to debug this again
  if (shipping !== billing && VAT[shipping] !== VAT[billing]) throw new TaxRegionMismatch('tax region mismatch');
  const rate = VAT[shipping];
  if (rate === undefined) return 0;
  return Math.round(input.subtotalCents * rate);
}
