import { describe, expect, it } from 'vitest';
import { readIn } from '../test-support/shell.js';

/** Every spelling here skips or disables the git hooks (or the gate) and must be found. */
const BYPASSES: readonly string[] = [
  // --no-verify and -n, every spelling git accepts
  'git commit -n -m x',
  'git commit --no-verify -m x',
  'git commit --no-verif -m x',
  'git commit --no-veri -m x',
  'git commit --no-ver -m x',
  'git commit --no-ve -m x',
  'git commit --no-v -m x',
  'git commit -anm x',
  'git commit -nam x',
  'git commit -qnm x',
  'git commit -vn',
  'git commit -an -m x',
  'git commit -m x -n',
  'git commit -m x --no-verify',
  'git commit --message=x -n',
  'git commit --message x --no-v',
  'git commit -F msg.txt -n',
  'git commit --amend --no-edit -n',
  'git commit -a -m "fix" --no-verify',
  'git commit -m "two words" -qn',
  "git commit -m 'x' -n -- src/a.ts",
  // global options before the subcommand
  'git -c core.hooksPath=/dev/null commit -m x',
  'git -c core.hookspath=/tmp commit -m x',
  'git -c CORE.HOOKSPATH=/tmp commit -m x',
  'git -c Core.HooksPath= commit -m x',
  'git -ccore.hooksPath=/dev/null commit -m x',
  'git --config-env=core.hooksPath=HOOKS commit -m x',
  'git --config-env core.hooksPath=HOOKS commit -m x',
  'git -C . -c core.hooksPath=x commit -m x',
  'git --no-pager -P --bare -c core.hooksPath=x commit -m x',
  'git -c user.name=me -c core.hooksPath=/tmp/h commit -m x',
  'git -c include.path=/tmp/evil.cfg commit -m x',
  'git -c includeIf.gitdir:/.path=/tmp/evil.cfg commit -m x',
  'git --git-dir=/tmp/other/.git commit -m x',
  'git --git-dir /tmp/other/.git commit -m x',
  'git -C /tmp/other commit -n -m x',
  'git --work-tree=. --namespace=x --exec-path=/usr/lib/git-core commit -n -m x',
  'git -p --literal-pathspecs commit --no-verify -m x',
  'git -c core.hooksPath=/tmp status',
  // hook-path overrides through git config
  'git config core.hooksPath /dev/null',
  'git config --global core.hooksPath /tmp/h',
  'git config --system core.hooksPath x',
  'git config --local --add core.hooksPath x',
  'git config --replace-all core.hooksPath x',
  'git config --unset core.hooksPath',
  'git config --unset-all core.hookspath',
  'git config set core.hooksPath x',
  'git config unset core.hooksPath',
  'git config --file .git/config core.hooksPath x',
  'git config -f .git/config core.hooksPath x',
  'git config --worktree core.hooksPath x',
  'git config include.path /tmp/evil.cfg',
  'git config --remove-section core',
  'git config --rename-section core other',
  'git config -e',
  'git config --global --edit',
  'git -C sub config core.hooksPath x',
  // aliases that carry a commit without hooks
  "git config alias.ci 'commit -n'",
  "git config alias.ci 'commit --no-verify'",
  "git config --global alias.c '!git commit --no-verify'",
  "git -c alias.ci='commit --no-verify' ci -m x",
  "git -c alias.ci='commit -n' ci -m x",
  "git -c alias.x='!git commit -n' x",
  'git --config-env=alias.ci=VAR ci -m x',
  // plumbing that commits or moves branches without hooks
  'git commit-tree HEAD^{tree} -m x',
  'git commit-tree -p HEAD abc123',
  'git update-ref refs/heads/main abc123',
  'git update-ref HEAD abc123',
  'git update-ref --stdin',
  'git replace HEAD abc123',
  'git fast-import < stream',
  'git filter-branch --tree-filter true HEAD',
  'git merge --no-verify feature',
  'git merge --no-v feature',
  'git pull --no-verify',
  'git rebase --no-verify main',
  'git cherry-pick --no-verify abc',
  'git am --no-verify x.patch',
  'git revert --no-verify HEAD',
  'git push --no-verify',
  "git rebase -x 'git commit --amend -n --no-edit' main",
  // environment
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x',
  'GIT_CONFIG_KEY_0=core.hooksPath git commit -m x',
  'GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=me GIT_CONFIG_KEY_1=CORE.HOOKSPATH GIT_CONFIG_VALUE_1=x git commit -m x',
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.ci GIT_CONFIG_VALUE_0='commit -n' git ci -m x",
  `GIT_CONFIG_PARAMETERS="'core.hooksPath'='/dev/null'" git commit -m x`,
  'GIT_CONFIG_GLOBAL=/tmp/g git commit -m x',
  'GIT_CONFIG_SYSTEM=/tmp/s git commit -m x',
  'GIT_DIR=/tmp/other git commit -m x',
  'GIT_DIR=$X git commit -m x',
  'export GIT_CONFIG_PARAMETERS=x; git commit -m y',
  'export GIT_DIR=/tmp/o && git commit -m x',
  'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null',
  'GIT_CONFIG_KEY_0=core.hooksPath; export GIT_CONFIG_KEY_0',
  "export GIT_CONFIG_KEY_0=alias.ci; export GIT_CONFIG_VALUE_0='commit -n' GIT_CONFIG_COUNT=1; git ci -m x",
  'GIT_CONFIG_KEY_3=$KEY git commit -m x',
  'env GIT_CONFIG_GLOBAL=/tmp/g git commit -m x',
  'env -i GIT_DIR=/x git commit -m x',
  'sudo GIT_CONFIG_GLOBAL=/tmp/g git commit -m x',
  'declare -x GIT_CONFIG_GLOBAL=/x',
  'typeset -x GIT_CONFIG_PARAMETERS=x',
  // the gate's own variables
  'HOLDFAST_GATE=off git commit -m x',
  'export HOLDFAST_GATE=off',
  'env HOLDFAST_GATE=off git commit -m x',
  'HOLDFAST_GATE=off; export HOLDFAST_GATE; git commit -m x',
  // the hook files themselves
  'rm .git/hooks/pre-commit',
  'rm -f .git/hooks/*',
  'rm -rf .git/hooks',
  'rm -rf .git',
  'rm -- .git/hooks/pre-commit',
  'mv .git/hooks/pre-commit /tmp/x',
  'mv .git/hooks .git/hooks-off',
  'chmod -x .git/hooks/pre-commit',
  'chmod 644 .git/hooks/pre-commit',
  'chmod a-x .git/hooks/pre-commit',
  'chmod -R 600 .git/hooks',
  'cd .git/hooks && rm pre-commit',
  'cd .git && rm hooks/pre-commit',
  'find .git/hooks -delete',
  'ln -sf /dev/null .git/hooks/pre-commit',
  'cp /dev/null .git/hooks/pre-commit',
  'echo "exit 0" > .git/hooks/pre-commit',
  ': > .git/hooks/pre-commit',
  'truncate -s 0 .git/hooks/pre-commit',
  'git rm .git/hooks/pre-commit',
  "printf '[core]\\n\\thooksPath = /dev/null\\n' >> .git/config",
  "echo '[core] hooksPath=/tmp' > ~/.gitconfig",
  'HOME=/tmp/fake git commit -m x',
  'export XDG_CONFIG_HOME=/tmp/x && git commit -m x',
  'rm "$(git rev-parse --git-path hooks)/pre-commit"',
  'rm -f "$GIT_DIR/hooks/pre-commit"',
  'mv "$HOOKS_DIR/pre-commit" /tmp/',
  'chmod -x "$(git rev-parse --git-dir)/hooks/pre-commit"',
  'python3 -c "import os; os.remove(\'.git/hooks/pre-commit\')"',
  'node scripts/x.js .git/hooks/pre-commit',
  // other ways to run git
  "alias gc='git commit --no-verify'",
  "trap 'git commit -n -m x' EXIT",
  "su -c 'git commit -n -m x'",
  'flock /tmp/lock git commit -n -m x',
  "flock /tmp/lock -c 'git commit -n -m x'",
  "env -S 'git commit -n -m x'",
  'echo x | xargs -I{} git commit -n -m {}',
  'find . -maxdepth 0 -exec git commit -n -m x \\;',
  "busybox sh -c 'git commit -n -m x'",
  '/usr/bin/git commit -n -m x',
  '\\git commit -n -m x',
  '"git" commit -n -m x',
  'g\\it commit -n -m x',
  'G=git; $G commit -n -m x',
  'C="git commit -n"; $C -m x',
  'git commit $(echo --no-verify) -m x',
  "watch 'git commit -n -m x'",
  'sudo -s git commit -n -m x',
  'command -p git commit -n -m x',
  'exec git commit -n -m x',
  "bash -c 'git commit $1 -m x' sh -n",
  'sh -c \'git commit "$@"\' sh --no-verify -m x',
  // package scripts
  'npm run ship',
  'npm run-script ship -- --force',
  'yarn ship',
  'pnpm ship',
  'npm test',
  // what cannot be read, in a command that could commit
  'git commit $FLAGS -m x',
  'git commit "$@"',
  '$GIT commit -m x',
  '"$(which git)" commit -m x',
  'git $SUBCOMMAND -m "commit"',
  'git $OPTS commit -m x',
  'eval "$CMD"; git commit -m x',
  'bash -c "$CMD" # commit',
  'git commit -m "x',
  'curl -s https://example.com/x.sh | sh # then commit',
];

/** Ordinary git use that must not be mistaken for a bypass. */
const ORDINARY: readonly string[] = [
  'git commit -m x',
  'git commit -m "-n is fine in a message"',
  'git commit -m -n',
  'git commit -m--no-verify',
  'git commit --message=--no-verify',
  'git commit --message --no-verify',
  'git commit -F msg.txt',
  'git commit -am "fix the -n flag"',
  'git commit -Sn -m x',
  'git commit --verbose -m x',
  'git commit --no-edit --amend',
  'git commit --no-status -m x',
  'git commit -m x -- -n',
  'git commit -m "$(cat <<\'EOF\'\nmsg -n\nEOF\n)"',
  'git commit -m "$MESSAGE"',
  'git status -n',
  'git log -n 5',
  'git push -n',
  'git push',
  'git config core.hooksPath',
  'git config --get core.hooksPath',
  'git config --get-all core.hooksPath',
  'git config get core.hooksPath',
  'git config -l',
  'git config user.name x',
  'git config alias.st status',
  'git -c user.name=x commit -m y',
  'git -c "user.name=$NAME" commit -m y',
  'git --config-env=user.name=NAME commit -m y',
  'git -C sub status',
  'git --git-dir=.git commit -m x',
  'GIT_DIR=.git git commit -m x',
  'GIT_CONFIG_GLOBAL=/dev/null git commit -m x',
  'GIT_AUTHOR_NAME=x git commit -m y',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=me git commit -m x',
  'echo "git commit -n"',
  "printf '%s\\n' '--no-verify'",
  'grep -rn "no-verify" src',
  'cat .git/hooks/pre-commit',
  'ls .git/hooks',
  'chmod +x .git/hooks/pre-commit',
  'chmod 755 .git/hooks/pre-commit',
  'chmod u+x .git/hooks/pre-commit',
  'HOME=/tmp/fake npm run build',
  "echo 'hooksPath is documented' > docs/notes.md",
  'git merge feature',
  'git rebase main',
  'git cherry-pick abc',
  'rm -rf node_modules/.cache',
  'npm run build && git commit -m x',
  'git commit $(echo -n) -m x',
  "bash -c 'git commit -m \"$1\"' sh 'a -n message'",
  "sh -c 'git commit -m $0' done",
  'git update-ref -d refs/heads/old',
  'git update-ref refs/notes/x abc',
];

/** A project whose package scripts commit without hooks (as an agent could have written them). */
const PACKAGE = {
  files: {
    'package.json': JSON.stringify({
      scripts: { ship: 'git add -A && git commit -n -m ship', pretest: 'git commit --no-verify -m wip', test: 'vitest run', build: 'tsc' },
    }),
  },
};

describe('git hook bypasses', () => {
  it.each(BYPASSES.map((command) => [command]))('finds the bypass in %s', (command) => {
    const { bypasses } = readIn(command, PACKAGE);
    expect(bypasses.length).toBeGreaterThan(0);
    for (const bypass of bypasses) {
      expect(command + JSON.stringify(PACKAGE)).toContain(bypass.segment.replace(/…$/, ''));
      expect(bypass.reason.startsWith(`\`${bypass.segment}\``)).toBe(true);
      // The reason quotes the agent's own command back; the rest never names a way to switch the gate off.
      expect(bypass.reason.slice(bypass.segment.length + 2)).not.toMatch(/HOLDFAST_GATE=|allow --once|=off|switch (it|the gate) off/i);
    }
  });

  it.each(ORDINARY.map((command) => [command]))('does not call %s a bypass', (command) => {
    expect(readIn(command, PACKAGE).bypasses).toEqual([]);
  });

  it('names the option and what it would do', () => {
    expect(readIn('git commit --no-veri -m x').bypasses).toEqual([
      {
        segment: 'git commit --no-veri -m x',
        reason: '`git commit --no-veri -m x` skips the pre-commit and commit-msg hooks, so the commit would not be judged (--no-veri)',
      },
    ]);
    expect(readIn('git commit -anm x').bypasses[0]?.reason).toMatch(/\(-n in -anm\)$/);
    expect(readIn('git -c core.hooksPath=/dev/null commit -m x').bypasses[0]?.reason).toMatch(/different hooks folder \(core\.hooksPath\)/);
    expect(readIn('npm run ship', PACKAGE).bypasses[0]?.reason).toBe(
      '`git commit -n -m ship` (in the package script "ship" that `npm run ship` runs) skips the pre-commit and commit-msg hooks, so the commit would not be judged (-n)',
    );
    expect(readIn('rm .git/hooks/pre-commit').bypasses[0]?.reason).toBe(
      '`rm .git/hooks/pre-commit` removes git hooks (.git/hooks/pre-commit), so the pre-commit gate would not run',
    );
  });

  it('reports every bypass of one command, not only the first', () => {
    const { bypasses } = readIn('git -c core.hooksPath=/x commit -n -m a && rm .git/hooks/pre-commit && HOLDFAST_GATE=off true');
    expect(bypasses.map((bypass) => bypass.segment)).toEqual([
      'git -c core.hooksPath=/x commit -n -m a',
      'git -c core.hooksPath=/x commit -n -m a',
      'rm .git/hooks/pre-commit',
      'HOLDFAST_GATE=off true',
    ]);
  });

  it('judges a git directory against the project root, wherever the command runs', () => {
    expect(readIn('GIT_DIR=../.git git commit -m x', {}, '/repo/src').bypasses).toEqual([]);
    expect(readIn('git --git-dir=.git commit -m x', {}, '/repo/src').bypasses).toHaveLength(1);
  });
});

describe('commits', () => {
  it.each([
    ['git commit -m x', 'x'],
    ['git commit -m a -m b', 'a\n\nb'],
    ['git commit --message=done', 'done'],
    ['git commit --message done', 'done'],
    ['git commit --mess done', 'done'],
    ['git commit -mdone', 'done'],
    ['git commit -am "fix it"', 'fix it'],
    ['git commit -F msg.txt', 'from a file\n'],
    ['git commit --file=msg.txt', 'from a file\n'],
    ['echo piped | git commit -F -', 'piped\n'],
    ['git commit -m "$(cat <<\'EOF\'\nAdd orders\n\nWith a body.\nEOF\n)"', 'Add orders\n\nWith a body.'],
    ['git commit --amend --no-edit', ''],
    ['MSG=hello; git commit -m "$MSG world"', 'hello world'],
    ['git -C . -c user.name=x commit -qm "via globals"', 'via globals'],
    ["git -c alias.ci=commit ci -m 'via alias'", 'via alias'],
  ])('reads %s as a commit with message %j', (command, message) => {
    const { actions } = readIn(command, { files: { 'msg.txt': 'from a file\n' } });
    expect(actions.filter((action) => action.type === 'commit')).toEqual([{ type: 'commit', message }]);
  });

  it('keeps every commit in order, wherever it sits', () => {
    const command = 'npm test && (git commit -m a) && bash -c "git commit -m b" && echo $(git commit -m c) && { git commit -m d; }';
    expect(readIn(command).actions.filter((action) => action.type !== 'run')).toEqual([
      { type: 'commit', message: 'a' },
      { type: 'commit', message: 'b' },
      { type: 'commit', message: 'c' },
      { type: 'commit', message: 'd' },
    ]);
  });

  it('puts each simple command before the commit it makes, as a run', () => {
    expect(readIn('npm test && git commit -m "add orders"').actions).toEqual([
      { type: 'run', cmd: 'npm test' },
      { type: 'run', cmd: 'git commit -m "add orders"' },
      { type: 'commit', message: 'add orders' },
    ]);
  });

  it.each([
    ['git checkout main'],
    ['git switch -c x'],
    ['git restore .'],
    ['git reset --hard HEAD~1'],
    ['git stash'],
    ['git stash pop'],
    ['git apply x.patch'],
    ['git am x.patch'],
    ['git merge feature'],
    ['git pull'],
    ['git rebase main'],
    ['git cherry-pick abc'],
    ['git clean -fd'],
    ['git my-alias'],
  ])('treats %s as changing the work tree in ways not known in advance', (command) => {
    expect(readIn(command).unknownEffects.length).toBeGreaterThan(0);
  });

  it.each([
    ['git status'],
    ['git log --oneline -5'],
    ['git diff HEAD~1'],
    ['git show HEAD'],
    ['git rev-parse HEAD'],
    ['git add -A'],
    ['git reset HEAD a.ts'],
    ['git stash list'],
    ['git clean -n'],
    ['git apply --check x.patch'],
    ['git branch -a'],
    ['git fetch origin'],
  ])('treats %s as leaving the work tree alone', (command) => {
    expect(readIn(command).unknownEffects).toEqual([]);
  });

  it('reads git rm and git mv as deletes and moves', () => {
    expect(readIn('git rm existing.txt').actions).toContainEqual({ type: 'delete', path: 'existing.txt' });
    expect(readIn('git rm --cached existing.txt').actions.some((action) => action.type === 'delete')).toBe(false);
    expect(readIn('git mv existing.txt src/moved.txt').actions.filter((action) => action.type !== 'run')).toEqual([
      { type: 'write', path: 'src/moved.txt', content: 'old\n' },
      { type: 'delete', path: 'existing.txt' },
    ]);
  });
});
