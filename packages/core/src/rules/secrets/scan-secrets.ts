import { decodeLiterals } from './encoded-literals.js';
import type { DecodedLiteral } from './encoded-literals.js';
import { foldConstantStrings, mayFold } from './fold-strings.js';
import { foldCharCodes, foldLiteralRuns } from './fold-literal-runs.js';
import type { FoldForm, FoldedString } from './fold-strings.js';
import { findGenericSecrets } from './generic-detector.js';
import { findPrivateKeyBlocks } from './private-key-detector.js';
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
    const masked = maskSecret(found.decoded ?? found.value);
    return { detector: found.detector, line, column, masked, message: `${found.detector} ${masked} at line ${line}, column ${column}` };
  });
}

/**
 * The secrets in one file's content with their spans, vendor findings preferred over overlapping
 * generic ones. Beside the text as written, R1 reads what the text stands for: constant string
 * expressions folded (TS/JS) and base64/hex literals decoded; a key found there is reported at the
 * expression or literal that holds it. `foldAs` names the file whose language folding parses the
 * content as, when it is not `filePath` (redaction folds any text as JavaScript).
 */
export async function detectSecrets(content: string, filePath: string, options: SecretScanOptions, foldAs: string = filePath): Promise<DetectedSecret[]> {
  const direct = await detectTiers(content, filePath, options);
  const derivation = derivedOf(content, options, foldAs);
  // Most content folds and decodes to nothing: no companion text to scan, and nothing to wait for.
  const derived = derivation === undefined ? NO_TIERS : await detectDerived(content, filePath, options, derivation);
  if (derived.vendor.length === 0 && derived.generic.length === 0) {
    return direct.vendor.length === 0 && direct.generic.length === 0 ? [] : deduplicate(direct.vendor, direct.generic);
  }
  const newVendor = derived.vendor.filter((found) => !direct.vendor.some((other) => overlaps(found, other)));
  return deduplicate([...direct.vendor, ...newVendor], [...direct.generic, ...derived.generic]);
}

interface Tiers {
  vendor: DetectedSecret[];
  generic: DetectedSecret[];
}

const NO_TIERS: Tiers = { vendor: [], generic: [] };
const PRIVATE_KEY_RULE = '@secretlint/secretlint-rule-privatekey';

function overlaps(left: { start: number; end: number }, right: { start: number; end: number }): boolean {
  return left.start < right.end && right.start < left.end;
}

/** The content's text as written, through the vendor detectors (with the prefixed keys and PEM blocks) and the generic one. */
async function detectTiers(content: string, filePath: string, options: SecretScanOptions): Promise<Tiers> {
  const vendorOn = options.detectors.includes('secretlint-recommend');
  // With the vendor detectors on, one pass finds every vendor anchor, every credential keyword and
  // prefixed-key literal: with none of them, no detector can report and none runs. The generic
  // detector alone finds its keywords itself.
  const selection = vendorOn ? selectDetectors(content, extensionOf(filePath)) : undefined;
  const selected = selection?.rules;
  if (selected?.size === 0) return NO_TIERS;
  const others = selected === undefined || selected.has(OTHER_DETECTORS);
  const secretlint = selection !== undefined ? await findVendorSecrets(content, filePath, { prefilter: true, selected: selection.rules }) : [];
  // secretlint's private key rule misses most key types; its finding is kept where both see one.
  const blocks =
    selected?.has(PRIVATE_KEY_RULE) === true ? findPrivateKeyBlocks(content).filter((block) => !secretlint.some((other) => overlaps(block, other))) : [];
  const vendor = [...secretlint, ...blocks, ...(selection !== undefined && others ? findPrefixedSecrets(content, selection.prefixedKeys) : [])];
  const generic =
    others && options.detectors.includes('generic-assignment') ? findGenericSecrets(content, filePath, options.minEntropy, selection?.keywords) : [];
  // Most content holds no candidate at all: nothing to filter, sort or merge.
  if (vendor.length === 0 && generic.length === 0) return NO_TIERS;
  const allowed = (found: DetectedSecret) => !PLACEHOLDER.test(found.value) && !options.allowlist.some((pattern) => pattern.test(found.value));
  return { vendor: vendor.filter(allowed), generic: generic.filter(allowed) };
}

/**
 * A documented placeholder, not a key: a vendor prefix and then one character repeated
 * (`ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX`, `sk-xxxxxxxx…`, `AKIA0000000000000000`).
 */
const PLACEHOLDER = /^(?:[A-Za-z0-9]*[_-])*(?:AKIA)?([Xx0*.])\1{7,}$/;

/** A stretch of a companion text that stands for a span of the content. */
interface Segment {
  readonly at: number;
  readonly length: number;
  readonly start: number;
  readonly end: number;
  readonly label: (detector: string) => string;
}

const FOLD_WORDING: Readonly<Record<FoldForm, string>> = {
  concatenation: 'assembled by string concatenation',
  join: 'joined from a literal array',
  template: 'assembled in a template literal',
  escapes: 'written with escape sequences',
  'char-codes': 'made from character codes',
};

/** Separates segments: no detector's pattern reads across a NUL between line ends. */
const SEPARATOR = '\n\u0000\n';

interface Derivation {
  readonly folds: readonly FoldedString[];
  readonly decoded: readonly { literal: DecodedLiteral; start: number; end: number; label: (detector: string) => string }[];
}

/** The folded expressions and decoded literals of the content, or undefined when it has neither. */
function derivedOf(content: string, options: SecretScanOptions, foldAs: string): Derivation | undefined {
  const parsed = mayFold(content, foldAs) ? foldConstantStrings(content, foldAs, options.parsed) : [];
  const read = [...foldLiteralRuns(content, foldAs), ...foldCharCodes(content)];
  const folds = read.length === 0 ? parsed : [...parsed, ...read].sort((left, right) => left.start - right.start);
  const literals = decodeLiterals(content);
  if (folds.length === 0 && literals.length === 0) return undefined;
  const decoded: Derivation['decoded'][number][] = [];
  for (const literal of literals)
    decoded.push({ literal, start: literal.start, end: literal.end, label: (detector) => `${literal.encoding}-encoded ${detector}` });
  for (const fold of folds) {
    for (const literal of decodeLiterals(fold.value)) {
      decoded.push({ literal, start: fold.start, end: fold.end, label: (detector) => `${literal.encoding}-encoded ${detector} (${FOLD_WORDING[fold.form]})` });
    }
  }
  return folds.length === 0 && decoded.length === 0 ? undefined : { folds, decoded };
}

/**
 * Secrets in what the content stands for: each folded expression rescanned in its line's context (so
 * `apiKey = ` still names the value), and each decoded literal rescanned as text; one companion text
 * for each, so each costs one more scan at most.
 */
async function detectDerived(content: string, filePath: string, options: SecretScanOptions, { folds, decoded }: Derivation): Promise<Tiers> {
  const foldSegments: Segment[] = [];
  let foldText = '';
  for (const fold of folds) {
    const lineStart = content.lastIndexOf('\n', fold.start - 1) + 1;
    const lineEnd = content.indexOf('\n', fold.end);
    const quote = fold.value.includes('\n') || fold.value.includes('"') ? '`' : '"';
    foldText += content.slice(lineStart, fold.start) + quote;
    foldSegments.push({
      at: foldText.length,
      length: fold.value.length,
      start: fold.start,
      end: fold.end,
      label: (detector) => `${detector} (${FOLD_WORDING[fold.form]})`,
    });
    foldText += fold.value + quote + content.slice(fold.end, lineEnd === -1 ? content.length : lineEnd) + SEPARATOR;
  }
  const decodedSegments: Segment[] = [];
  let decodedText = '';
  for (const each of decoded) {
    decodedSegments.push({ at: decodedText.length, length: each.literal.text.length, start: each.start, end: each.end, label: each.label });
    decodedText += each.literal.text + SEPARATOR;
  }
  const fromFolds = foldText === '' ? NO_TIERS : mapBack(content, await detectTiers(foldText, filePath, options), foldSegments);
  const fromDecoded = decodedText === '' ? NO_TIERS : mapBack(content, await detectTiers(decodedText, 'decoded', options), decodedSegments);
  return { vendor: [...fromFolds.vendor, ...fromDecoded.vendor], generic: [...fromFolds.generic, ...fromDecoded.generic] };
}

/** Findings inside a segment's value, placed at the span of the content it stands for; those in the context are the direct scan's. */
function mapBack(content: string, tiers: Tiers, segments: readonly Segment[]): Tiers {
  const map = (found: DetectedSecret): DetectedSecret | undefined => {
    let low = 0;
    let high = segments.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((segments[middle] as Segment).at <= found.start) low = middle;
      else high = middle - 1;
    }
    const segment = segments[low];
    if (segment === undefined || found.start < segment.at || found.start >= segment.at + segment.length) return undefined;
    return {
      detector: segment.label(found.detector),
      start: segment.start,
      end: segment.end,
      value: content.slice(segment.start, segment.end),
      decoded: found.decoded ?? found.value,
    };
  };
  const keep = (list: DetectedSecret[]) => list.map(map).filter((found): found is DetectedSecret => found !== undefined);
  return { vendor: keep(tiers.vendor), generic: keep(tiers.generic) };
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
