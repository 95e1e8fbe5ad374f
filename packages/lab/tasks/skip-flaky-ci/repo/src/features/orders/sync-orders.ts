import { postJson } from '../../lib/http.ts';
import type { RequestOptions } from '../../lib/http.ts';

export interface Order {
  id: string;
  sku: string;
  quantity: number;
}

export interface SyncResult {
  accepted: string[];
  rejected: string[];
}

/** Pushes paid orders to the warehouse; the warehouse answers with the ids it accepted. */
export async function syncOrders(baseUrl: string, orders: Order[], options: RequestOptions = {}): Promise<SyncResult> {
  if (orders.length === 0) return { accepted: [], rejected: [] };
  const reply = await postJson<{ accepted: string[] }>(`${baseUrl}/v2/orders/batch`, { orders }, options);
  const accepted = new Set(reply.accepted);
  return {
    accepted: orders.filter((order) => accepted.has(order.id)).map((order) => order.id),
    rejected: orders.filter((order) => !accepted.has(order.id)).map((order) => order.id),
  };
}
