import { findGenericSecrets } from './generic-detector.js';
import { findPrefixedSecrets } from './prefix-detector.js';
import { maskSecret } from './mask.js';
import { createPositionLookup } from './source-position.js';
import type { DetectedSecret, SecretFinding, SecretScanOptions } from './secret-finding.js';
import { OTHER_DETECTORS, selectDetectors } from './vendor-anchors.js';
import { extensionOf, findVendorSecrets } from './vendor-detector.js';

/**
 * Every credential hardcoded in one file's content, sorted by position. The vendor detectors
 * (secretlint's recommended preset) and the generic assignment detector run as the options say;
 * where both find the same secret, the vendor's finding is the one reported.
 */
export async function scanSecrets(content: string, filePath: string, options: SecretScanOptions): Promise<SecretFinding[]> {
  const kept = await detectSecrets(content, filePath, options);
  if (kept.length === 0) return [];
  const positionOf = createPositionLookup(content);
  return kept.map((found) => {
    const { line, column } = positionOf(found.start);
    const masked = maskSecret(found.value);
    return { detector: found.detector, line, column, masked, message: `${found.detector} ${masked} at line ${line}, column ${column}` };
  });
}

/** The secrets in one file's content with their spans, vendor findings preferred over overlapping generic ones. */
export async function detectSecrets(content: string, filePath: string, options: SecretScanOptions): Promise<DetectedSecret[]> {
  const vendorOn = options.detectors.includes('secretlint-recommend');
  // With the vendor detectors on, one pass finds every vendor anchor, every credential keyword and
  // prefixed-key literal: with none of them, no detector can report and none runs. The generic
  // detector alone finds its keywords itself.
  const selection = vendorOn ? selectDetectors(content, extensionOf(filePath)) : undefined;
  const selected = selection?.rules;
  if (selected?.size === 0) return [];
  const others = selected === undefined || selected.has(OTHER_DETECTORS);
  const vendor =
    selection !== undefined
      ? [
          ...(await findVendorSecrets(content, filePath, { prefilter: true, selected: selection.rules })),
          ...(others ? findPrefixedSecrets(content, selection.prefixedKeys) : []),
        ]
      : [];
  const generic =
    others && options.detectors.includes('generic-assignment') ? findGenericSecrets(content, filePath, options.minEntropy, selection?.keywords) : [];
  // Most content holds no candidate at all: nothing to filter, sort or merge.
  if (vendor.length === 0 && generic.length === 0) return [];
  const allowed = (found: DetectedSecret) => !options.allowlist.some((pattern) => pattern.test(found.value));
  return deduplicate(vendor.filter(allowed), generic.filter(allowed));
}

function byPosition(left: DetectedSecret, right: DetectedSecret): number {
  return left.start - right.start || left.end - right.end || left.detector.localeCompare(right.detector);
}

/** Vendor findings stay (identical ones once); a generic finding goes if it overlaps a vendor one or an earlier generic one. */
function deduplicate(vendor: DetectedSecret[], generic: DetectedSecret[]): DetectedSecret[] {
  const vendorSorted = [...vendor].sort(byPosition).filter((found, index, all) => {
    const previous = all[index - 1];
    return previous === undefined || previous.start !== found.start || previous.end !== found.end;
  });
  const maxEndSoFar: number[] = [];
  for (const found of vendorSorted) maxEndSoFar.push(Math.max(found.end, maxEndSoFar[maxEndSoFar.length - 1] ?? -1));
  const overlapsVendor = (found: DetectedSecret): boolean => {
    // Vendor spans starting before this one ends; if the furthest of them reaches past its start, they overlap.
    let low = 0;
    let high = vendorSorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((vendorSorted[middle]?.start ?? 0) < found.end) low = middle + 1;
      else high = middle;
    }
    return low > 0 && (maxEndSoFar[low - 1] ?? -1) > found.start;
  };
  const keptGeneric: DetectedSecret[] = [];
  let genericEnd = -1;
  for (const found of [...generic].sort(byPosition)) {
    if (found.start < genericEnd || overlapsVendor(found)) continue;
    keptGeneric.push(found);
    genericEnd = found.end;
  }
  return [...vendorSorted, ...keptGeneric].sort(byPosition);
}
