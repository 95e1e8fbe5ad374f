import { createRequire } from 'node:module';
import { AWS_RULE, findAwsAccessKeyIds } from './aws-key-id.js';
import { AWS_SECRET_KEY_NAME, EXCLUDED_VENDOR_RULES, OTHER_DETECTORS, selectVendorRules, VENDOR_ANCHORS } from './vendor-anchors.js';
import { vendorLabel } from './vendor-labels.js';
import type { DetectedSecret } from './secret-finding.js';
import { jsonOrUndefined } from '../../contract/json.js';

type LintSource = (typeof import('@secretlint/core'))['lintSource'];
type CoreConfig = Parameters<LintSource>[0]['options']['config'];
type PresetRule = (typeof import('@secretlint/secretlint-rule-preset-recommend'))['rules'][number];

interface Secretlint {
  lintSource: LintSource;
  rules: readonly PresetRule[];
}

const VALUE_PROPS = ['KEY', 'TOKEN', 'ID', 'URL', 'URI', 'CREDENTIAL'] as const;
const LOCATE_WINDOW = 256;

let loaded: Promise<Secretlint> | undefined;
const configs = new Map<string, CoreConfig>();

/** secretlint is loaded on the first file that any anchor selects, never at import. */
function loadSecretlint(): Promise<Secretlint> {
  // Required, not imported: the bundled hook entry runs from a V8 code cache, where a dynamic import()
  // has no loader to call; both packages ship CommonJS.
  loaded ??= Promise.resolve().then(() => {
    const require = createRequire(import.meta.url);
    const core = require('@secretlint/core') as typeof import('@secretlint/core');
    const preset = require('@secretlint/secretlint-rule-preset-recommend') as typeof import('@secretlint/secretlint-rule-preset-recommend');
    silenceProfiler(createRequire(require.resolve('@secretlint/core')));
    return { lintSource: core.lintSource, rules: preset.rules.filter((rule) => !EXCLUDED_VENDOR_RULES.has(rule.meta.id)) };
  });
  return loaded;
}

/**
 * secretlint marks every file and rule it runs in the global performance timeline, and its
 * profiler keeps each mark for good and searches all of them at every new one: memory and time
 * that grow with every file a long-lived process scans (a bench of a few thousand files spent
 * minutes on it after its last scan). holdfast never reads that profile, so the marks are not made.
 * The profiler is secretlint's own dependency, resolved from where secretlint is.
 */
function silenceProfiler(requireFromCore: NodeJS.Require): void {
  const { secretLintProfiler } = requireFromCore('@secretlint/profiler') as { secretLintProfiler: { mark: (marker: unknown) => void } };
  secretLintProfiler.mark = () => undefined;
}

/** The preset's rule ids, minus the excluded ones (for the completeness test of the anchor table). */
export async function vendorRuleIds(): Promise<string[]> {
  const { rules } = await loadSecretlint();
  return rules.map((rule) => rule.meta.id);
}

/**
 * One config per set of selected rules, built once and reused. Every rule runs with its defaults;
 * the AWS rule's access key id scan, off by default, runs in aws-key-id.ts instead, without the
 * account id scan that switching it on here would bring.
 */
function configFor(rules: readonly PresetRule[]): CoreConfig {
  const key = rules.map((rule) => rule.meta.id).join(',');
  let config = configs.get(key);
  if (config === undefined) {
    config = {
      rules: rules.map((rule) => ({ id: rule.meta.id, rule })),
    } as CoreConfig;
    configs.set(key, config);
  }
  return config;
}

export function extensionOf(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

export interface VendorScanOptions {
  /** Skip rules whose anchors are absent. Off only to prove, in tests, that it changes nothing. */
  prefilter: boolean;
  /** The content's selection, when the caller made it already (selectDetectors). */
  selected?: ReadonlySet<string>;
}

/** Secrets found by the secretlint recommended preset, each located at the secret value itself. */
export async function findVendorSecrets(content: string, filePath: string, options: VendorScanOptions = { prefilter: true }): Promise<DetectedSecret[]> {
  const extension = extensionOf(filePath);
  let selectedIds: ReadonlySet<string> | undefined;
  if (options.prefilter) {
    selectedIds = options.selected ?? selectVendorRules(content, extension);
    if (selectedIds.size === (selectedIds.has(OTHER_DETECTORS) ? 1 : 0)) return [];
  }
  const secretlint = await loadSecretlint();
  // A rule missing from the anchor table (a newer preset) is always run rather than silently skipped.
  const rules = secretlint.rules.filter((rule) => selectedIds === undefined || selectedIds.has(rule.meta.id) || VENDOR_ANCHORS[rule.meta.id] === undefined);
  const scansAws = rules.some((rule) => rule.meta.id === AWS_RULE);
  // A file selected by an access key id alone needs the id scan only, not the rule's slow secret key pattern.
  const linted = scansAws && selectedIds !== undefined && !AWS_SECRET_KEY_NAME.test(content) ? rules.filter((rule) => rule.meta.id !== AWS_RULE) : rules;
  const found = linted.length === 0 ? [] : await lintWith(secretlint, linted, content, filePath, extension);
  if (!scansAws) return found;
  return [...found, ...findAwsAccessKeyIds(content)].sort((left, right) => left.start - right.start);
}

async function lintWith(secretlint: Secretlint, rules: readonly PresetRule[], content: string, filePath: string, extension: string): Promise<DetectedSecret[]> {
  const result = await secretlint.lintSource({
    source: { filePath, content, ext: extension, contentType: 'text' },
    options: { config: configFor(rules), noPhysicFilePath: true, locale: 'en' },
  });
  return result.messages.map((message) => {
    const { start, value } = locateValue(content, message.messageId, message.range, message.data);
    return { detector: vendorLabel(message.ruleId, message.messageId), start, end: Math.min(content.length, start + value.length), value };
  });
}

/**
 * Where the secret itself starts. Some rules report a range that starts at the variable name
 * (AWS secret key) or covers the whole file (GCP service account), so the value is looked up.
 */
function locateValue(content: string, messageId: string, range: readonly [number, number], data: unknown): { start: number; value: string } {
  if (messageId === 'PrivateKeyJSON') return locateServiceAccountKey(content, range);
  const props = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const value = VALUE_PROPS.map((prop) => props[prop]).find((candidate): candidate is string => typeof candidate === 'string' && candidate.length > 0);
  if (value === undefined) return { start: range[0], value: content.slice(range[0], range[1]) };
  if (content.startsWith(value, range[0])) return { start: range[0], value };
  const offset = content.slice(range[0], range[0] + value.length + LOCATE_WINDOW).indexOf(value);
  return { start: offset === -1 ? range[0] : range[0] + offset, value };
}

function locateServiceAccountKey(content: string, range: readonly [number, number]): { start: number; value: string } {
  const key = /"private_key"\s*:\s*"/.exec(content);
  const parsed = jsonOrUndefined(content);
  const privateKey = typeof parsed === 'object' && parsed !== null ? (parsed as { private_key?: unknown }).private_key : undefined;
  const value = typeof privateKey === 'string' ? privateKey : content.slice(range[0], range[1]);
  return { start: key === null ? range[0] : key.index + key[0].length, value };
}
