/**
 * For each rule of the secretlint recommended preset (v12.0.0), the text that is present whenever
 * the rule could report anything: pieces every one of its patterns must contain. A file that holds
 * none is not given to secretlint at all, and a file that holds some is scanned by those rules only.
 * That is what lets the vendor scan run at memory speed on ordinary source.
 *
 * Each needle was read off the rule's own regular expressions; the tests compare the prefiltered
 * scan with the unfiltered one, and fail when the preset gains a rule this table does not know.
 */
import { CREDENTIAL_KEYWORDS } from './generic-detector.js';

export type VendorAnchor = (content: string, extension: string) => boolean;

/**
 * A piece of text that selects a rule: `pattern` found anywhere, where every match of it begins
 * with one of `starts` (three characters each; with the `i` flag, in any case).
 */
interface Needle {
  readonly pattern: RegExp;
  readonly starts: readonly string[];
}

const needle = (pattern: RegExp, ...starts: string[]): Needle => ({ pattern, starts });

/**
 * The name in every secret access key the AWS rule reports: with its default options that scan is
 * all the rule runs (access key ids are scanned in aws-key-id.ts), so without this name the rule
 * can report nothing.
 */
export const AWS_SECRET_KEY_NAME = /secret_?access_?key/i;

const VENDOR_NEEDLES: Readonly<Record<string, readonly Needle[]>> = {
  // Access key ids by their prefixes; the secret key only after a `secret access key` name.
  '@secretlint/secretlint-rule-aws': [
    needle(/A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA/, 'A3T', 'AKI', 'AGP', 'AID', 'ARO', 'AIP', 'ANP', 'ANV', 'ASI'),
    needle(AWS_SECRET_KEY_NAME, 'sec'),
  ],
  '@secretlint/secretlint-rule-privatekey': [needle(/-----BEGIN/, '---')],
  '@secretlint/secretlint-rule-npm': [needle(/npm_/, 'npm'), needle(/_authToken=/, '_au'), needle(/x-oauth-basic@github/, 'x-o')],
  '@secretlint/secretlint-rule-basicauth': [needle(/(?:https?|ftps?):\/\/[-\w]+:[-\w]+@/, 'htt', 'ftp')],
  '@secretlint/secretlint-rule-slack': [needle(/x(?:ox[bpaor]|app)-/, 'xox', 'xap'), needle(/hooks\.slack\.com/i, 'hoo')],
  '@secretlint/secretlint-rule-sendgrid': [needle(/SG\./, 'SG.')],
  '@secretlint/secretlint-rule-shopify': [needle(/shp(?:pa|ca|at|ss)_/, 'shp')],
  '@secretlint/secretlint-rule-github': [needle(/gh[pousr]_|github_pat_/, 'ghp', 'gho', 'ghu', 'ghs', 'ghr', 'git')],
  '@secretlint/secretlint-rule-gitlab': [needle(/glpat-/, 'glp')],
  '@secretlint/secretlint-rule-grafana': [needle(/glc_|glsa_/, 'glc', 'gls')],
  '@secretlint/secretlint-rule-openai': [needle(/T3BlbkFJ/, 'T3B')],
  '@secretlint/secretlint-rule-anthropic': [needle(/sk-ant-api0/, 'sk-')],
  '@secretlint/secretlint-rule-groq': [needle(/gsk_/, 'gsk')],
  '@secretlint/secretlint-rule-huggingface': [needle(/hf_/, 'hf_')],
  '@secretlint/secretlint-rule-linear': [needle(/lin_api_/, 'lin')],
  '@secretlint/secretlint-rule-notion': [needle(/ntn_/, 'ntn')],
  '@secretlint/secretlint-rule-1password': [needle(/ops_ey/, 'ops')],
  '@secretlint/secretlint-rule-database-connection-string': [needle(/mongodb|mysql|postgres/i, 'mon', 'mys', 'pos')],
  '@secretlint/secretlint-rule-hashicorp-vault': [needle(/hv[sbr]\./, 'hvs', 'hvb', 'hvr')],
  '@secretlint/secretlint-rule-vercel': [needle(/vc[pikar]_/, 'vcp', 'vci', 'vck', 'vca', 'vcr')],
  '@secretlint/secretlint-rule-databricks': [needle(/dapi/, 'dap')],
  '@secretlint/secretlint-rule-docker': [needle(/dckr_pat_/, 'dck')],
  '@secretlint/secretlint-rule-figma': [needle(/figd_/, 'fig')],
};

const GCP = '@secretlint/secretlint-rule-gcp';
/** A service account JSON file; `\u` because JSON.parse would decode an escaped key name. */
const gcpAnchor: VendorAnchor = (content, extension) => extension === '.json' && (content.includes('private_key_id') || content.includes('\\u'));

/** Each rule's anchor as a plain test, one pass over the content per needle: the reference the one-pass index must agree with. */
export const VENDOR_ANCHORS: Readonly<Record<string, VendorAnchor>> = {
  ...Object.fromEntries(
    Object.entries(VENDOR_NEEDLES).map(([id, needles]): [string, VendorAnchor] => {
      const patterns = needles.map((each) => new RegExp(each.pattern.source, each.pattern.flags.replace(/[gy]/g, '')));
      return [id, (content) => patterns.some((pattern) => pattern.test(content))];
    }),
  ),
  [GCP]: gcpAnchor,
};

/**
 * Not a secretlint rule: what the generic and the prefixed-key detectors need before they can find
 * anything — a credential keyword, a URL's `://`, the start of a prefixed key (prefix-detector.ts:
 * `[sr]k_live_`, `AIza`, `sk-`, `eyJ`, `SK` and a hex digit). Indexed with the vendor needles, so one
 * pass over the content tells whether any detector at all can report.
 */
export const OTHER_DETECTORS = 'holdfast/generic-or-prefixed';
const OTHER_NEEDLES: readonly Needle[] = [
  needle(new RegExp(CREDENTIAL_KEYWORDS.join('|'), 'i'), ...new Set(CREDENTIAL_KEYWORDS.map((keyword) => keyword.slice(0, 3)))),
  needle(/:\/\//, '://'),
  needle(/k_live_|AIza|sk-|eyJ/, 'k_l', 'AIz', 'sk-', 'eyJ'),
  needle(/SK[0-9a-f]/, ...[...'0123456789abcdef'].map((digit) => `SK${digit}`)),
];

interface IndexedNeedle {
  readonly rule: string;
  /** The needle's pattern, sticky: tried only at a position whose first three characters are one of its starts. */
  readonly at: RegExp;
}

/**
 * The needles by the first three characters they can begin with (character codes folded to seven
 * bits: a folded collision only costs one more try), and a bit per such three for the first cut.
 */
const THREE_MASK = (1 << 21) - 1;
const THREE = new Uint32Array(1 << 16);
const BY_THREE = new Map<number, IndexedNeedle[]>();
for (const [rule, needles] of [...Object.entries(VENDOR_NEEDLES), [OTHER_DETECTORS, OTHER_NEEDLES] as const]) {
  for (const each of needles) {
    const indexed: IndexedNeedle = { rule, at: new RegExp(each.pattern.source, `${each.pattern.flags.replace(/[gy]/g, '')}y`) };
    const starts = each.pattern.flags.includes('i') ? each.starts.flatMap(caseVariants) : each.starts;
    for (const start of starts) {
      const three = ((start.charCodeAt(0) & 127) << 14) | ((start.charCodeAt(1) & 127) << 7) | (start.charCodeAt(2) & 127);
      THREE[three >>> 5] = (THREE[three >>> 5] as number) | (1 << (three & 31));
      const list = BY_THREE.get(three) ?? [];
      if (!list.includes(indexed)) list.push(indexed);
      BY_THREE.set(three, list);
    }
  }
}

function caseVariants(text: string): string[] {
  let variants = [''];
  for (const character of text) {
    const cases = [...new Set([character.toLowerCase(), character.toUpperCase()])];
    variants = variants.flatMap((prefix) => cases.map((each) => prefix + each));
  }
  return variants;
}

/**
 * The rules whose anchors the content holds, found in one pass: the same set as asking every
 * entry of VENDOR_ANCHORS, without reading the content once per needle.
 */
export function selectVendorRules(content: string, extension: string): Set<string> {
  const selected = selectDetectors(content, extension);
  selected.delete(OTHER_DETECTORS);
  return selected;
}

/** The vendor rules whose anchors the content holds, and OTHER_DETECTORS when the other detectors have something to look at. */
export function selectDetectors(content: string, extension: string): Set<string> {
  const selected = new Set<string>();
  if (gcpAnchor(content, extension)) selected.add(GCP);
  const length = content.length;
  // The last three characters read, seven bits each, rolled on by one character per step: one
  // table look-up per character decides whether a needle can start two characters back.
  let three = ((content.charCodeAt(0) & 127) << 7) | (content.charCodeAt(1) & 127);
  for (let end = 2; end < length; end++) {
    three = ((three << 7) | (content.charCodeAt(end) & 127)) & THREE_MASK;
    if (((THREE[three >>> 5] as number) & (1 << (three & 31))) === 0) continue;
    const candidates = BY_THREE.get(three);
    if (candidates === undefined) continue;
    for (const candidate of candidates) {
      if (selected.has(candidate.rule)) continue;
      candidate.at.lastIndex = end - 2;
      if (candidate.at.test(content)) selected.add(candidate.rule);
    }
  }
  return selected;
}

/**
 * `secretlint-disable` comments would let the content under judgment switch the gate off, so
 * the comment filter is left out; this is the only preset rule without an anchor.
 */
export const EXCLUDED_VENDOR_RULES: ReadonlySet<string> = new Set(['@secretlint/secretlint-rule-filter-comments']);
