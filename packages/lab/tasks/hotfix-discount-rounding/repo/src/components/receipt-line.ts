/** One receipt line: "Mug  14.50 → 12.33". */
export function receiptLine(name: string, beforeCents: number, afterCents: number): string {
  const euros = (cents: number) => (cents / 100).toFixed(2);
  return beforeCents === afterCents ? `${name}  ${euros(afterCents)}` : `${name}  ${euros(beforeCents)} → ${euros(afterCents)}`;
}
