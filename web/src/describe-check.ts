import type { RuleCheck } from '../../src/contract/index.js';

function list(values: readonly string[]): string {
  return values.map((value) => `\`${value}\``).join(', ');
}

/** What a rule's deterministic check does, in one or two sentences for the rulebook panel. */
export function describeCheck(check: RuleCheck): string {
  switch (check.kind) {
    case 'secret': {
      const detectors = check.detectors
        .map((detector) =>
          detector === 'secretlint-recommend'
            ? 'the secretlint recommended detectors'
            : `a generic key = value detector (entropy ≥ ${check.minEntropy} bits/char)`,
        )
        .join(' and ');
      const scope = check.files === undefined ? 'every written file' : `written files matching ${list(check.files)}`;
      const allow = check.allowlist.length === 0 ? '' : ` Values matching ${list(check.allowlist)} are allowed.`;
      return `Scans ${scope} with ${detectors}; a finding is a violation.${allow}`;
    }
    case 'scope':
      return `A write or delete must resolve inside ${list(check.allow)}. Absolute paths, drive letters, backslashes, \`..\` escapes and case look-alikes are refused.`;
    case 'sibling-test':
      return `A new file matching ${list(check.modules)} needs a test at ${list(check.tests)} written in the same round. Editing an existing file does not; ${list(check.exempt)} are exempt.`;
    case 'forbidden-pattern': {
      const flags = check.flags === '' ? '' : ` (flags ${check.flags})`;
      const exclude = check.exclude.length === 0 ? '' : `, except ${list(check.exclude)}`;
      return `Refuses ${check.what} in written files matching ${list(check.files)}${exclude}: patterns ${list(check.patterns)}${flags}.`;
    }
    case 'http-helper':
      return `Only \`${check.helper}\` may call HTTP directly; in ${list(check.folders)} any match of ${list(check.patterns)} is a violation.`;
    case 'order':
      return `Every commit must come after a run matching \`${check.command}\` (such as \`${check.example}\`) in the same action list.`;
    // issue #28 kinds
    case 'paths': {
      const allow = check.allow === undefined ? '' : `A write or delete must resolve inside ${list(check.allow)}. `;
      const deny = check.deny === undefined ? '' : `${list(check.deny)} (${check.what}) must never be written or deleted, whatever the case of the letters. `;
      return `${allow}${deny}Absolute paths, backslashes and \`..\` escapes are refused.`;
    }
    case 'command': {
      const entries = check.forbid.map((entry) => {
        const flags = entry.flags === undefined ? '' : ` with ${list(entry.flags)}`;
        return `\`${entry.command}\`${flags}${entry.outside ? ' on a path outside the project' : ''}`;
      });
      return `Refuses a run of ${entries.join('; ')}, read from the parsed command line (through env, sudo, sh -c, eval, pipes and subshells). A comment or a string naming it does not count; a program name computed at run time is refused.`;
    }
    case 'requires':
      return `Every commit needs ${check.commands.map((command) => list(command.run)).join(' and ')} to have passed after the last change, run in the project root (no --prefix, -C, --cwd, --dir or cd elsewhere).`;
    case 'dependency': {
      const then = check.needs === undefined ? 'is refused' : `needs a file matching ${list(check.needs)} written in the same change`;
      return `A new${check.changed ? ' or changed' : ''} dependency in ${list(check.manifests)} ${then}.`;
    }
    case 'custom':
      return `The team's own check ${check.module === undefined ? `\`${(check.exec ?? []).join(' ')}\`` : `\`${check.module}\``}, killed after ${check.timeoutMs} ms or ${check.memoryMb} MB; a crash or a bad answer is a refusal.`;
  }
}
