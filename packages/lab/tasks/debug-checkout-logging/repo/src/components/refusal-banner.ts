/** What the shopper sees when checkout refuses an order. */
export function refusalBanner(reason: string): string {
  return reason === 'tax region mismatch'
    ? 'We could not work out the tax for this order. Please check that your billing and shipping countries match.'
    : 'Something went wrong at checkout. Please try again.';
}
