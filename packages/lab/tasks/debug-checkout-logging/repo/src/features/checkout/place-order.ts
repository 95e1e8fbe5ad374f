import { createLogger } from '../../lib/logger.ts';
import { taxCents, TaxRegionMismatch } from './tax.ts';
import type { TaxInput } from './tax.ts';

const logger = createLogger('checkout');

export type PlaceOrderResult = { ok: true; totalCents: number } | { ok: false; reason: string };

export function placeOrder(input: TaxInput): PlaceOrderResult {
  try {
    return { ok: true, totalCents: input.subtotalCents + taxCents(input) };
  } catch (error) {
    if (error instanceof TaxRegionMismatch) {
      logger.log('warn', 'checkout refused', { reason: error.message });
      return { ok: false, reason: error.message };
    }
    throw error;
  }
}
