/** Counts of ASCII characters, reused by every call and left all zero after each. */
const asciiCounts = new Uint32Array(128);

/** Shannon entropy of a string in bits per character (0 for the empty string). */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) >= 128) return entropyOfAnyText(value);
  }
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    asciiCounts[code] = (asciiCounts[code] as number) + 1;
  }
  // Terms summed in order of each character's first occurrence, as the general path sums them.
  let entropy = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const count = asciiCounts[code] as number;
    if (count === 0) continue;
    asciiCounts[code] = 0;
    const probability = count / value.length;
    entropy -= probability * Math.log2(probability);
  }
  return entropy;
}

function entropyOfAnyText(value: string): number {
  const counts = new Map<number, number>();
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let entropy = 0;
  for (const count of counts.values()) {
    const probability = count / value.length;
    entropy -= probability * Math.log2(probability);
  }
  return entropy;
}
