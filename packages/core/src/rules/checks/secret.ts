import type { CheckResult, SecretCheck } from '../../contract/index.js';
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
  prepare(check, rule) {
    const applies = check.files === undefined ? () => true : compileGlobs(check.files);
    const allowlist = lazyPatterns(check.allowlist, '');
    const options: SecretScanOptions = { detectors: check.detectors, minEntropy: check.minEntropy, allowlist };
    return async (round) => {
      const results: CheckResult[] = [];
      for (const action of round.actions) {
        if (action.type !== 'write' || !action.path.ok || !applies(action.path.path)) continue;
        const what = `write to ${action.shownPath}`;
        if (action.content === undefined) {
          results.push(result(rule, action.index, false, `${what} has no readable content (not a string), so it cannot be scanned for credentials.`));
        } else {
          results.push(await judgeContent(action.content, action.path.path, what, action.index));
        }
      }
      return results;
    };

    async function judgeContent(content: string, path: string, what: string, index: number): Promise<CheckResult> {
      let findings: SecretFinding[];
      try {
        const { scanSecrets } = await loadScanner();
        findings = await scanSecrets(content, path, options);
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
