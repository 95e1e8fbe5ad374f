import { describe, expect, it } from 'vitest';
import { repoFacts } from './repo-facts.js';

describe('repoFacts', () => {
  it('takes the test command from package.json, run with the package manager its lockfile names', () => {
    expect(repoFacts(['yarn.lock', 'src/a.ts'], '{"scripts":{"test":"jest"}}')).toMatchObject({
      testCommand: 'yarn test',
      testCommandSource: 'package.json scripts.test ("jest"), run with yarn',
    });
    expect(repoFacts(['package-lock.json'], '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}').testCommand).toBeUndefined();
    expect(repoFacts([], undefined).testCommand).toBeUndefined();
    expect(repoFacts([], '{not json').testCommand).toBeUndefined();
  });

  it('proposes the runner the repository uses: cargo test for a crate with Python scripts, go test for a module, pytest for Python', () => {
    expect(repoFacts(['Cargo.toml', 'src/lib.rs', 'scripts/a.py', 'scripts/b.py', 'tools/c.py'], undefined).testCommand).toBe('cargo test');
    expect(repoFacts(['go.mod', 'sum.go', 'gen/x.py', 'gen/y.py'], undefined).testCommand).toBe('go test ./...');
    expect(repoFacts(['pyproject.toml', 'pkg/a.py', 'tests/test_a.py'], undefined).testCommand).toBe('pytest');
    expect(repoFacts(['pnpm-lock.yaml', 'Cargo.toml', 'src/a.ts'], '{"scripts":{"test":"vitest run"}}').testCommand).toBe('pnpm test');
  });

  it('finds the source folders that exist and the extensions in them', () => {
    const facts = repoFacts(['lib/a.js', 'lib/b.mjs', 'packages/x/src/c.ts', 'docs/d.md', 'scripts/e.ts'], undefined);
    expect(facts.sourceFolders).toEqual(['lib', 'packages']);
    expect(facts.extensions).toEqual(['ts', 'js', 'mjs']);
  });

  it('names tests the way the repository does: siblings, .spec, __tests__/ or tests/ folders, whichever it has most', () => {
    expect(repoFacts(['src/a.ts', 'src/a.test.ts'], undefined).testTemplate).toBe('{dir}/{stem}.test.{ext}');
    expect(repoFacts(['src/a.ts', 'src/a.spec.ts', 'src/b.spec.ts'], undefined).testTemplate).toBe('{dir}/{stem}.spec.{ext}');
    expect(repoFacts(['src/a.ts', 'src/__tests__/a.test.ts', 'src/x.test.ts'], undefined).testTemplate).toBe('{dir}/{stem}.test.{ext}');
    expect(repoFacts(['src/a.ts', 'src/__tests__/a.test.ts', 'src/__tests__/b.test.ts', 'src/x.test.ts'], undefined).testTemplate).toBe(
      '{dir}/__tests__/{stem}.test.{ext}',
    );
    const zodLike = repoFacts(['src/v4/core/errors.ts', 'src/v4/classic/tests/string.test.ts', 'src/v4/classic/tests/object.test.ts'], undefined);
    expect(zodLike.testTemplate).toBe('{dir}/tests/{stem}.test.{ext}');
    expect(zodLike.testTemplateSource).toBe('the repository has 2 tests in tests/ folders beside the modules');
    expect(repoFacts(['src/a.ts'], undefined).testTemplateSource).toBe('no tests found; the usual sibling *.test.* file');
  });
});
