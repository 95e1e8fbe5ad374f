import { describe, expect, it } from 'vitest';
import { readCommands } from './read-commands.js';

const programs = (line: string) => readCommands(line).commands.map((command) => [command.program, ...command.args.map((arg) => arg.text)].join(' '));

describe('readCommands', () => {
  it.each([
    ['git push --force', ['git push --force']],
    ['env X=1 git push -f', ['git push -f']],
    ["sh -c 'git reset --hard'", ['git reset --hard']],
    ["bash -lc 'npm publish'", ['npm publish']],
    ['echo a; git push -f && ls | wc -l', ['echo a', 'git push -f', 'ls', 'wc -l']],
    ['(cd x && git push -f)', ['git push -f']],
    ['echo $(git push -f)', ['git push -f', 'echo $(git push -f)']],
    ['sudo -u bob nice -n 5 timeout 10 git push -f', ['git push -f']],
    ["eval 'git push -f'", ['git push -f']],
    ['G=git; $G push -f', ['git push -f']],
    ['/usr/bin/git push -f', ['git push -f']],
    ['# git push --force', []],
    ["echo 'git push --force'", ['echo git push --force']],
  ])('%s runs %j', (line, expected) => {
    expect(programs(line)).toEqual(expected);
  });

  it('lists a program computed at run time as undecided', () => {
    const reading = readCommands('$TOOL push -f');
    expect(reading.commands).toEqual([]);
    expect(reading.undecided[0]?.why).toMatch(/computed at run time/);
    expect(readCommands('sh -c "$SCRIPT"').undecided[0]?.why).toMatch(/computed at run time/);
  });

  it('knows the folder each command runs in', () => {
    const folders = (line: string) => readCommands(line).commands.map((command) => command.folder);
    expect(folders('npm test')).toEqual([{ where: 'root' }]);
    expect(folders('cd packages/a && npm test')).toEqual([{ where: 'inside', path: 'packages/a' }]);
    expect(folders('cd /tmp && npm test')).toEqual([{ where: 'outside', path: '/tmp' }]);
    expect(folders('cd a && cd .. && npm test')).toEqual([{ where: 'root' }]);
    expect(folders('cd ../other; npm test')).toEqual([{ where: 'outside', path: '../other' }]);
    expect(folders('(cd a); npm test')).toEqual([{ where: 'root' }]);
    expect(folders('cd "$DIR" && npm test')[0]?.where).toBe('unknown');
    expect(folders('env -C sub npm test')).toEqual([{ where: 'inside', path: 'sub' }]);
  });

  it('marks which commands decide the exit code', () => {
    const decisive = (line: string) => readCommands(line).commands.map((command) => `${command.program}:${command.decisive}`);
    expect(decisive('npm test')).toEqual(['npm:true']);
    expect(decisive('npm test && git commit')).toEqual(['npm:true', 'git:true']);
    expect(decisive('npm test || true')).toEqual(['npm:false', 'true:false']);
    expect(decisive('npm test; echo done')).toEqual(['npm:false', 'echo:true']);
    expect(decisive('npm test | tee log')).toEqual(['npm:false', 'tee:true']);
    expect(decisive('! npm test')).toEqual(['npm:false']);
    expect(decisive('npm test &')).toEqual(['npm:false']);
    expect(decisive('if true; then npm test; fi')).toEqual(['true:false', 'npm:false']);
    expect(decisive("sh -c 'npm test'")).toEqual(['npm:true']);
  });

  it('never throws on input that does not parse', () => {
    const reading = readCommands('git push "unterminated');
    expect(reading.undecided[0]?.why).toMatch(/does not parse/);
  });
});
