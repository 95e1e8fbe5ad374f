import type { Order } from '../features/orders/sync-orders.ts';

/** One line per order for the support dashboard, e.g. "o-1  MUG-01 x2". */
export function orderSummary(orders: Order[]): string {
  return orders.map((order) => `${order.id}  ${order.sku} x${order.quantity}`).join('\n');
}
