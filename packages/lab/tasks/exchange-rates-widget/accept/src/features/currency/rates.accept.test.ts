// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currencySelect } from '../../components/currency-select.ts';
import { convertFromEur } from './rates.ts';

const RATES = { amount: 1, base: 'EUR', date: '2024-05-17', rates: { GBP: 0.85, USD: 1.1, CHF: 0.98 } };

/** Frankfurter answered locally, whether the code passes `fetchImpl` or calls fetch itself. */
function frankfurter() {
  const requests: string[] = [];
  const fetchImpl = async (input: string | URL | Request) => {
    requests.push(String(input instanceof Request ? input.url : input));
    return new Response(JSON.stringify(RATES), { headers: { 'content-type': 'application/json' } });
  };
  return { fetchImpl, requests };
}

async function withFetch<T>(fetchImpl: (input: string | URL | Request) => Promise<Response>, work: () => Promise<T>): Promise<T> {
  const { fetch } = globalThis;
  globalThis.fetch = fetchImpl as typeof globalThis.fetch;
  try {
    return await work();
  } finally {
    globalThis.fetch = fetch;
  }
}

test('a EUR price converts at the rate Frankfurter gives', async () => {
  const api = frankfurter();
  const cents = await withFetch(api.fetchImpl, () => convertFromEur(1000, 'USD', { fetchImpl: api.fetchImpl }));
  assert.equal(cents, 1100);
  assert.ok(api.requests.every((url) => url.includes('frankfurter')), 'the rates come from the Frankfurter API');
  assert.equal(await withFetch(api.fetchImpl, () => convertFromEur(1999, 'GBP', { fetchImpl: api.fetchImpl })), 1699);
  assert.equal(await withFetch(api.fetchImpl, () => convertFromEur(1450, 'EUR', { fetchImpl: api.fetchImpl })), 1450);
});

test('the switcher renders the price in the chosen currency', async () => {
  const api = frankfurter();
  const line = await withFetch(api.fetchImpl, () => currencySelect(1000, 'CHF', { fetchImpl: api.fetchImpl }));
  assert.match(line, /CHF/);
  assert.match(line, /9,80/);
});
