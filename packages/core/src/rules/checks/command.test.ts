import { describe, expect, it } from 'vitest';
import { judgeWith, ruleWith, run } from '../test-support/kind-rulebook.js';

const rulebook = ruleWith(`
kind: command
forbid:
  - { command: git reset, flags: [--hard] }
  - { command: git push, flags: [--force, -f, --force-with-lease], why: it rewrites shared history }
  - { command: git, flags: [--no-verify] }
  - { command: npm publish }
  - { command: rm, flags: [-r, -R, --recursive], outside: true }
`);

async function verdict(cmd: string) {
  const [result] = await judgeWith(rulebook, [run(cmd)]);
  return result;
}

describe('command check', () => {
  it.each([
    'git reset --hard',
    'git reset --hard HEAD~1',
    'git push --force',
    'git push -f origin main',
    'git push --force-with-lease',
    'git push --force=yes',
    'git push origin +main',
    'git -C . push -f',
    'git commit --no-verify -m x',
    'git push --no-verify',
    'npm publish',
    'npm --silent publish',
    'rm -rf /',
    'rm -rf ~',
    'rm -rf ../sibling',
    'cd /tmp && rm -rf build',
    'env X=1 git push -f',
    "sh -c 'git push -f'",
    "bash -lc 'npm publish'",
    'echo ok; git reset --hard',
    'npm test && git push -f',
    'cat x | git push -f',
    '(git push -f)',
    'echo $(git reset --hard)',
    'G=git; $G push -f',
    'sudo git push -f',
    "eval 'npm publish'",
  ])('refuses %j', async (cmd) => {
    const result = await verdict(cmd);
    expect(result).toMatchObject({ rule: 'R9', ok: false });
    expect(result?.detail).toMatch(/^R9 KIND: run /);
    expect(result?.detail).toMatch(/forbidden/);
  });

  it.each([
    'git push',
    'git push origin main',
    'git reset --soft HEAD~1',
    'git status # never git push --force',
    "echo 'git reset --hard'",
    'grep -r "npm publish" docs',
    'npm test',
    'npm run publish-docs',
    'rm -rf build',
    'rm -rf ./dist node_modules',
    'rm -f /tmp/x.log',
    'git log -- -f',
    "git commit -m 'use --no-verify never'",
  ])('allows %j', async (cmd) => {
    expect(await verdict(cmd)).toMatchObject({ ok: true });
  });

  it('fails closed on a program name or a flag computed at run time, saying so', async () => {
    expect((await verdict('$TOOL push -f'))?.detail).toMatch(/cannot be judged: .*program name is computed at run time/);
    expect((await verdict('git push $FLAGS'))?.detail).toMatch(/cannot be judged: .*computed at run time \(\$FLAGS\)/);
    expect((await verdict('rm -rf "$DIR"'))?.detail).toMatch(/cannot be judged/);
    expect((await verdict('git push origin "feature/$NAME"'))?.ok).toBe(true);
  });

  it('says which rule, which command and why', async () => {
    const result = await verdict('env X=1 git push -f');
    expect(result?.detail).toBe(
      'R9 KIND: run "env X=1 git push -f" (action 0) runs `git push` with -f through env, which is forbidden (it rewrites shared history); do the work without it.',
    );
  });

  it('judges only runs', async () => {
    const results = await judgeWith(rulebook, [{ type: 'write', path: 'src/a.ts', content: 'git push --force' }, run('ls')]);
    expect(results.map((result) => [result.actionIndex, result.ok])).toEqual([[1, true]]);
  });
});
