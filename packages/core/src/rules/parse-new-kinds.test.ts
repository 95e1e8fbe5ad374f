import { describe, expect, it } from 'vitest';
import { safeParseRulebook } from './parse-rulebook.js';

function problems(check: string): string {
  const parsed = safeParseRulebook(`version: 1\nrules:\n  - id: R9\n    name: KIND\n    prose: The rule.\n    check: ${check}\n`, 'team.yaml');
  if (parsed.ok) return 'loaded';
  return parsed.error.message;
}

describe('loading the issue #28 kinds', () => {
  it('loads each kind with its defaults', () => {
    for (const check of [
      '{ kind: paths, deny: ["migrations/**"] }',
      '{ kind: command, forbid: [{ command: npm publish }] }',
      '{ kind: requires, commands: [{ run: ["npm test"] }] }',
      '{ kind: dependency }',
      '{ kind: custom, exec: [python3, check.py] }',
    ])
      expect(problems(check), check).toBe('loaded');
  });

  it.each([
    ['{ kind: paths, deny: [] }', /team\.yaml.*rule R9, field check\.deny.*at least 1 item/s],
    ['{ kind: paths, allow: ["/etc/**"] }', /field check\.allow\[0\].*is absolute/s],
    ['{ kind: paths, denied: ["x/**"] }', /unknown key "denied".*allowed: kind, allow, deny, what/s],
    ['{ kind: command, forbid: [{ command: "git  push" }] }', /field check\.forbid\[0\]\.command.*single spaces/s],
    ['{ kind: command, forbid: [{ command: git push, flags: [force] }] }', /field check\.forbid\[0\]\.flags\[0\].*"-f" or "--force"/s],
    ['{ kind: command, forbid: [] }', /field check\.forbid.*at least 1 item/s],
    ['{ kind: requires, commands: [{ run: [] }] }', /field check\.commands\[0\]\.run.*at least 1 item/s],
    ['{ kind: dependency, manifests: [npm] }', /field check\.manifests\[0\].*"npm" is not allowed/s],
    ['{ kind: dependency, needs: ["..\\/adr/**"] }', /field check\.needs\[0\].*climbs with/s],
    ['{ kind: custom, module: check.py }', /field check\.module.*\.js, \.mjs/s],
    ['{ kind: custom, exec: [node], memoryMb: 1 }', /field check\.memoryMb/s],
    ['{ kind: nope }', /"nope" is not a check kind; write one of .*paths, command, requires, dependency, custom/s],
  ])('refuses %s naming the file and the field', (check, message) => {
    expect(problems(check)).toMatch(message);
  });
});
