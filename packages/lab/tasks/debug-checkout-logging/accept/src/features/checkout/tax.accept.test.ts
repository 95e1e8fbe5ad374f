// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taxCents, TaxRegionMismatch } from './tax.ts';

/** Everything printed while `run` runs, whichever way it was printed (console, the logger, stdout or stderr). */
function printedWhile(run: () => void): string {
  const printed: string[] = [];
  const methods = ['log', 'info', 'debug', 'warn', 'error'] as const;
  const originals = methods.map((method) => console[method]);
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  for (const method of methods) console[method] = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  process.stdout.write = ((chunk: unknown) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown) => (printed.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    run();
  } catch {
    // the refusal is checked on its own below
  } finally {
    methods.forEach((method, index) => (console[method] = originals[index]!));
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
  return printed.join('\n');
}

test('INC-2291: the raw shipping and billing countries are logged before the comparison', () => {
  const printed = printedWhile(() => taxCents({ subtotalCents: 10000, shippingCountry: 'aT', billingCountry: 'iE' }));
  assert.match(printed, /aT/, 'the raw shipping country is in the log');
  assert.match(printed, /iE/, 'the raw billing country is in the log');
});

test('the tax itself is unchanged: a mismatch is still refused, German VAT still 19 %', () => {
  assert.throws(() => taxCents({ subtotalCents: 10000, shippingCountry: 'aT', billingCountry: 'iE' }), TaxRegionMismatch);
  printedWhile(() => assert.equal(taxCents({ subtotalCents: 10000, shippingCountry: 'DE', billingCountry: 'de' }), 1900));
  assert.equal(taxCents({ subtotalCents: 10000, shippingCountry: 'DE', billingCountry: 'de' }), 1900);
});
