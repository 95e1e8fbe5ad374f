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
import { keywordProbe, patternProbe, probeTable, readOnce } from './one-pass.js';
import type { ProbeTable } from './one-pass.js';
import { EVERY_PREFIXED_KEY, prefixedKeyProbes } from './prefix-detector.js';

export type VendorAnchor = (content: string, extension: string) => boolean;

/**
 * A piece of text that selects a rule: `pattern` found anywhere, where every match of it begins
 * with one of `starts` (three characters each, in any case).
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
 * anything — a credential keyword, a URL's `://`, a prefixed key's literal. Found in the same pass
 * as the vendor needles, so one read of the content tells whether any detector at all can report,
 * and hands those two detectors what they would otherwise read the content again for.
 */
export const OTHER_DETECTORS = 'holdfast/generic-or-prefixed';

const VENDOR_RULES = Object.keys(VENDOR_NEEDLES);
const URL_FLAG = VENDOR_RULES.length;
const FIRST_PREFIXED_KEY_FLAG = URL_FLAG + 1;
let everyNeedle: ProbeTable | undefined;
const everyNeedleTable = (): ProbeTable =>
  (everyNeedle ??= probeTable([
    ...VENDOR_RULES.flatMap((rule, flag) => (VENDOR_NEEDLES[rule] ?? []).map((each) => patternProbe(flag, each.pattern, each.starts))),
    patternProbe(URL_FLAG, /:\/\//, ['://']),
    ...prefixedKeyProbes(FIRST_PREFIXED_KEY_FLAG),
    ...CREDENTIAL_KEYWORDS.map(keywordProbe),
  ]));

/** What the one pass found in a content. */
export interface DetectorSelection {
  /** The vendor rules whose anchors the content holds, and OTHER_DETECTORS when the other detectors have something to look at. */
  readonly rules: Set<string>;
  /** keywordsIn(content), for the generic detector. */
  readonly keywords: Int32Array;
  /** prefixedKeysIn(content), for the prefixed-key detector. */
  readonly prefixedKeys: number;
}

/** The rules whose anchors the content holds: the same set as asking every entry of VENDOR_ANCHORS. */
export function selectVendorRules(content: string, extension: string): Set<string> {
  const { rules } = selectDetectors(content, extension);
  rules.delete(OTHER_DETECTORS);
  return rules;
}

/** The detectors that can report on the content, found in one pass without reading it once per needle. */
export function selectDetectors(content: string, extension: string): DetectorSelection {
  const { flags, keywords } = readOnce(content, everyNeedleTable());
  const rules = new Set<string>();
  for (let flag = 0; flag < VENDOR_RULES.length; flag++) if ((flags & (1 << flag)) !== 0) rules.add(VENDOR_RULES[flag] as string);
  if (gcpAnchor(content, extension)) rules.add(GCP);
  const prefixedKeys = (flags >>> FIRST_PREFIXED_KEY_FLAG) & EVERY_PREFIXED_KEY;
  if (keywords.length > 0 || (flags & (1 << URL_FLAG)) !== 0 || prefixedKeys !== 0) rules.add(OTHER_DETECTORS);
  return { rules, keywords, prefixedKeys };
}

/**
 * `secretlint-disable` comments would let the content under judgment switch the gate off, so
 * the comment filter is left out; this is the only preset rule without an anchor.
 */
export const EXCLUDED_VENDOR_RULES: ReadonlySet<string> = new Set(['@secretlint/secretlint-rule-filter-comments']);
