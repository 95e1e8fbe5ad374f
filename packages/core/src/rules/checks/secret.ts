import type { CheckResult, SecretCheck } from '../../contract/index.js';
import { parseOnce } from '../code/code-language.js';
import { compileGlobs } from '../glob.js';
import { lazyPatterns } from '../regex.js';
import type { SecretFinding, SecretScanOptions } from '../secrets/index.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

// The vendor detectors are heavy to load; a rulebook or a round without writes never pays for them.
let scanner: Promise<typeof import('../secrets/index.js')> | undefined;
function loadScanner(): Promise<typeof import('../secrets/index.js')> {
  scanner ??= import('../secrets/index.js');
  return scanner;
}

/** R1: no credential in any written content, found by the vendor detectors and the generic one. */
export const secretCheck: CheckHandler<SecretCheck> = {
  description: 'Refuses a hardcoded credential in written content, found by real secret detectors.',
  timing: 'action',
  reads: 'file',
  prepare(check, rule) {
    const applies = check.files === undefined ? () => true : compileGlobs(check.files);
    const allowlist = lazyPatterns(check.allowlist, '');
    const options: SecretScanOptions = { detectors: check.detectors, minEntropy: check.minEntropy, allowlist };
    return async (round) => {
      // A file R1 folds and a code check reads is parsed once in the call: both take the tree from parseOnce.
      const parsed: SecretScanOptions['parsed'] = (language, text) => {
        const tree = parseOnce(round.actions, language, text);
        return tree.ok ? tree.root : undefined;
      };
      const scanOptions: SecretScanOptions = { ...options, parsed };
      const results: CheckResult[] = [];
      let scan: typeof import('../secrets/index.js') | undefined;
      for (const action of round.actions) {
        if (action.type !== 'write' || !action.path.ok || !applies(action.path.path)) continue;
        const what = `write to ${action.shownPath}`;
        if (action.content === undefined) {
          results.push(result(rule, action.index, false, `${what} has no readable content (not a string), so it cannot be scanned for credentials.`));
        } else {
          // The scanner module once per round, not an await of its loading per file.
          scan ??= await loadScanner().catch(() => undefined);
          results.push(await judgeContent(scan, action.content, action.path.path, what, action.index, scanOptions));
        }
      }
      return results;
    };

    async function judgeContent(
      loaded: typeof import('../secrets/index.js') | undefined,
      content: string,
      path: string,
      what: string,
      index: number,
      scanOptions: SecretScanOptions,
    ): Promise<CheckResult> {
      let findings: SecretFinding[];
      try {
        const { scanSecrets } = loaded ?? (await loadScanner());
        findings = await scanSecrets(content, path, scanOptions);
      } catch (error) {
        // Fail closed: content the scanner could not read is not known to be free of credentials.
        const reason = error instanceof Error ? error.message : String(error);
        return result(rule, index, false, `${what} could not be scanned for credentials (${reason}).`);
      }
      const [first] = findings;
      if (first === undefined) return result(rule, index, true, `${what} hardcodes no credential.`);
      const more = findings.length > 1 ? ` and ${findings.length - 1} more` : '';
      return result(
        rule,
        index,
        false,
        `${what} hardcodes a credential at line ${first.line} (${first.detector}, ${first.masked})${more}; read it from the environment instead.`,
      );
    }
  },
};
