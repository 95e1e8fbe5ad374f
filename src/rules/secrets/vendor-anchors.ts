/**
 * For each rule of the secretlint recommended preset (v12.0.0), a test that is true whenever the
 * rule could report anything: a substring every one of its patterns must contain. A file that
 * passes no test is not given to secretlint at all, and a file that passes some is scanned by
 * those rules only. That is what lets the vendor scan run at memory speed on ordinary source.
 *
 * Each anchor was read off the rule's own regular expressions; the tests compare the prefiltered
 * scan with the unfiltered one, and fail when the preset gains a rule this table does not know.
 */
export type VendorAnchor = (content: string, extension: string) => boolean;

const has = (needle: string): VendorAnchor => (content) => content.includes(needle);
const matches = (pattern: RegExp): VendorAnchor => (content) => pattern.test(content);

export const VENDOR_ANCHORS: Readonly<Record<string, VendorAnchor>> = {
  // Access key ids by their prefixes; the secret key only after a `secret access key` name.
  '@secretlint/secretlint-rule-aws': (content) => /A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA/.test(content) || /secret_?access_?key/i.test(content),
  // A service account JSON file; `\u` because JSON.parse would decode an escaped key name.
  '@secretlint/secretlint-rule-gcp': (content, extension) =>
    extension === '.json' && (content.includes('private_key_id') || content.includes('\\u')),
  '@secretlint/secretlint-rule-privatekey': has('-----BEGIN'),
  '@secretlint/secretlint-rule-npm': (content) =>
    content.includes('npm_') || content.includes('_authToken=') || content.includes('x-oauth-basic@github'),
  '@secretlint/secretlint-rule-basicauth': matches(/(?:https?|ftps?):\/\/[-\w]+:[-\w]+@/),
  '@secretlint/secretlint-rule-slack': (content) => /x(?:ox[bpaor]|app)-/.test(content) || /hooks\.slack\.com/i.test(content),
  '@secretlint/secretlint-rule-sendgrid': has('SG.'),
  '@secretlint/secretlint-rule-shopify': matches(/shp(?:pa|ca|at|ss)_/),
  '@secretlint/secretlint-rule-github': matches(/gh[pousr]_|github_pat_/),
  '@secretlint/secretlint-rule-gitlab': has('glpat-'),
  '@secretlint/secretlint-rule-grafana': matches(/glc_|glsa_/),
  '@secretlint/secretlint-rule-openai': has('T3BlbkFJ'),
  '@secretlint/secretlint-rule-anthropic': has('sk-ant-api0'),
  '@secretlint/secretlint-rule-groq': has('gsk_'),
  '@secretlint/secretlint-rule-huggingface': has('hf_'),
  '@secretlint/secretlint-rule-linear': has('lin_api_'),
  '@secretlint/secretlint-rule-notion': has('ntn_'),
  '@secretlint/secretlint-rule-1password': has('ops_ey'),
  '@secretlint/secretlint-rule-database-connection-string': matches(/mongodb|mysql|postgres/i),
  '@secretlint/secretlint-rule-hashicorp-vault': matches(/hv[sbr]\./),
  '@secretlint/secretlint-rule-vercel': matches(/vc[pikar]_/),
  '@secretlint/secretlint-rule-databricks': has('dapi'),
  '@secretlint/secretlint-rule-docker': has('dckr_pat_'),
  '@secretlint/secretlint-rule-figma': has('figd_'),
};

/**
 * `secretlint-disable` comments would let the content under judgment switch the gate off, so
 * the comment filter is left out; this is the only preset rule without an anchor.
 */
export const EXCLUDED_VENDOR_RULES: ReadonlySet<string> = new Set(['@secretlint/secretlint-rule-filter-comments']);
