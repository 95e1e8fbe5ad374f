import type { RuleCheck } from '@holdfast/core/browser';

function list(values: readonly string[]): string {
  return values.map((value) => `\`${value}\``).join(', ');
}

function forbidden(forbid: { readonly names: readonly string[]; readonly modules: readonly string[] }): string {
  const parts = [
    ...(forbid.names.length === 0 ? [] : [`any spelling of ${list(forbid.names)}`]),
    ...(forbid.modules.length === 0 ? [] : [`an import or require of ${list(forbid.modules)}`]),
  ];
  return parts.join(' or ');
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
    case 'http-helper': {
      if (check.forbid === undefined)
        return `Only \`${check.helper}\` may call HTTP directly; in ${list(check.folders)} any match of ${list(check.patterns)} is a violation.`;
      return `Only \`${check.helper}\` may call HTTP directly; in ${list(check.folders)} code is read on its syntax tree: ${forbidden(check.forbid)} is a violation. A file that does not parse is judged by ${list(check.patterns)}.`;
    }
    case 'code': {
      const language = check.language === undefined ? 'the language of its extension' : check.language;
      const exclude = check.exclude.length === 0 ? '' : `, except ${list(check.exclude)}`;
      const looks = [...(check.rule === undefined ? [] : ['an ast-grep rule']), ...(check.forbid === undefined ? [] : [forbidden(check.forbid)])].join(' and ');
      const fallback = check.fallback.length === 0 ? '' : ` A file that does not parse is judged by ${list(check.fallback)}.`;
      return `Refuses ${check.what} in written files matching ${list(check.files)}${exclude}, read on the syntax tree (${language}): ${looks}; comments and strings never count.${fallback}`;
    }
    case 'order':
      return `Every commit must come after a run matching \`${check.command}\` (such as \`${check.example}\`) in the same action list.`;
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
