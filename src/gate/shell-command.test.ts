import { describe, expect, it } from 'vitest';
import { readShellCommand, splitShellSegments } from './shell-command.js';

describe('readShellCommand', () => {
  it('reads a test run followed by a commit as two actions, in order', () => {
    expect(readShellCommand('npm test && git commit -m "add orders"').actions).toEqual([
      { type: 'run', cmd: 'npm test' },
      { type: 'commit', message: 'add orders' },
    ]);
  });

  it('keeps separators inside quotes', () => {
    expect(splitShellSegments(`echo "a && b; c" | wc -l`)).toEqual([`echo "a && b; c"`, 'wc -l']);
  });

  it.each([
    ['git commit --no-verify -m x'],
    ['git commit -n -m x'],
    ['git commit -anm x'],
    ['git -c core.hooksPath=/dev/null commit -m x'],
    ['FOO=1 git -c core.hooksPath=/tmp commit -m x'],
    ['git config core.hooksPath /tmp/nothing'],
  ])('refuses %s as a bypass of the git gate', (command) => {
    expect(readShellCommand(command).bypass).toBeDefined();
  });

  it.each([['git commit -m "-n is fine in a message"'], ['git commit -m x'], ['git status -n']])('does not call %s a bypass', (command) => {
    expect(readShellCommand(command).bypass).toBeUndefined();
  });

  it('finds git behind global options and wrappers', () => {
    expect(readShellCommand('env GIT_AUTHOR_NAME=x git -C repo commit --message=done').actions).toEqual([{ type: 'commit', message: 'done' }]);
  });
});
