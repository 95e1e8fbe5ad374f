import { describe, expect, it } from 'vitest';
import { CORPUS_FACTS, checkObjects, checkPolarity } from './draft-precision.js';
import { proposeCheck } from './propose-check.js';
import type { CheckProposal } from './propose-check.js';

/** What a proposal enforces, as the corpus labels read it: kind, polarity, objects; or `prose` with its reason. */
function read(rule: string, heading?: string, leadIn?: string): string {
  const proposal: CheckProposal = proposeCheck(rule, heading, CORPUS_FACTS, leadIn);
  if (proposal.kind === 'prose') return `prose: ${proposal.why}`;
  return `${proposal.check.kind} ${checkPolarity(proposal.check)} ${checkObjects(proposal.check).join(' | ')}`;
}

describe('a drafted check enforces what its sentence says', () => {
  it('a requirement is never drafted as a prohibition', () => {
    expect(read('ALWAYS use `cargo nextest` for tests.')).toMatch(/^prose: /);
    expect(read('Run `pnpm build` before committing.')).toBe('requires require pnpm build');
    expect(read('Run `just f` and `just l` before committing.')).toBe('requires require just f | just l');
    expect(read("Don't forget to run `pnpm lint` before you push.")).toBe('requires require pnpm lint');
    expect(read('Never commit without running `make check`.')).toBe('requires require make check');
    expect(read('Do not skip `pnpm i --frozen-lockfile` or `pnpm build`.')).toMatch(/^prose: /);
    expect(read('You can skip failing hooks using `--no-verify` during commit.')).toMatch(/^prose: /);
  });

  it('the object is what the prohibition names, never a neighbouring span, an example or a file taken for a command', () => {
    expect(read('Never use `console.log` in library code. Use the `debug` helper from `src/util/debug.ts` instead.')).toBe(
      'forbidden-pattern forbid console.log',
    );
    expect(read('Never run `git push --force` or `git reset --hard`.')).toBe('command forbid git push --force | git reset --hard');
    expect(read('NEVER use `npm run compile` to compile TypeScript files')).toBe('command forbid npm run compile');
    expect(read('Do not create flat files like `src/stream-text/openai.ts`')).toMatch(/^prose: /);
    expect(read('Avoid using `bind()` solely to control `this`.')).toMatch(/^prose: /);
    expect(read('It must never push or edit a pull request; it updates `uv.lock` before committing.')).toMatch(/^prose: /);
    expect(read('`docs/`: the docs source; do not edit translated docs under `docs/ja` or `docs/ko`.')).toBe('paths forbid docs/ja/** | docs/ko/**');
    expect(read('Preserve `.github/PULL_REQUEST_TEMPLATE.md`; never replace or bypass it.')).toBe('paths forbid .github/PULL_REQUEST_TEMPLATE.md');
    expect(read('Never `git reset --hard` or otherwise rewrite history, even if you are rewriting the change.')).toBe('command forbid git reset --hard');
  });

  it('a sentence it cannot read with confidence stays prose, and says why', () => {
    expect(read('Do not use `any` when the type is known from context.')).toMatch(/^prose: not read with confidence: a condition \("when"\)/);
    expect(read("Don't rely on `git push -u` alone.")).toMatch(/^prose: not read with confidence: .*gives advice/);
    expect(read('Do not invoke `$implementation-strategy` again when the packet has a scope.')).toMatch(/^prose: /);
    expect(read('Use `.nullish()` instead of `.optional()`')).toMatch(/^prose: /);
  });

  it('an escape hatch written for people does not stop the check (it starts at warn)', () => {
    expect(read('Do not introduce new third party libraries unless specifically requested.')).toBe('dependency forbid dependencies');
    expect(read("Don't bypass with `--no-verify` unless you have a specific reason.")).toBe('command forbid git --no-verify');
    expect(read("Don't add new dependencies without asking.")).toBe('dependency forbid dependencies');
  });

  it('a SECRET check comes from credentials the sentence forbids, never from design tokens or credential behaviour', () => {
    expect(read('Never hardcode API keys or tokens, not even in tests.')).toBe('secret forbid secrets');
    expect(read('Never include personal data, secrets, or other sensitive data in docs.')).toBe('secret forbid secrets');
    expect(read('Never use raw colour values; use the design system tokens.')).toMatch(/^prose: /);
    expect(read('Do not rely only on docs when credential behavior is involved.')).toMatch(/^prose: /);
  });

  it('a list item under a lead-in that asks for commands before a pull request requires its command', () => {
    const leadIn = "When you modify code in any library, run the following commands in that library's directory before creating a pull request:";
    expect(read('`make format` – run code formatters', undefined, leadIn)).toBe('requires require make format');
    expect(read('`make test` – execute the test suite', undefined, leadIn)).toBe('order require make test');
    expect(read('Use `require()` for imports', 'Do Not')).toBe('forbidden-pattern forbid require()');
    expect(read('Add new dependencies without running `pnpm update-references`', 'Do Not')).toMatch(/^prose: /);
  });
});
