import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readShellCommand } from './shell-command.js';
import { doubleQuoted, readIn, singleQuoted } from '../test-support/shell.js';
import { readTextFromDisk } from '../io/project-files.js';

/** The routes issue 10 found open, each read the way the gate must judge it. */
describe('the shell routes of issue 10', () => {
  it.each([
    ["printf 'export const y = 1;\\nconsole.log(y);\\n' > src/features/y.ts", 'src/features/y.ts', 'export const y = 1;\nconsole.log(y);\n'],
    [`echo '{"aws":"AKIAIOSFODNN7EXAMPLE"}' > config/keys.json`, 'config/keys.json', '{"aws":"AKIAIOSFODNN7EXAMPLE"}\n'],
    ["cat > src/lib/key.ts <<EOF\nexport const key = 'AKIAIOSFODNN7EXAMPLE';\nEOF", 'src/lib/key.ts', "export const key = 'AKIAIOSFODNN7EXAMPLE';\n"],
    ['echo hi > ../outside.txt', '../outside.txt', 'hi\n'],
  ])('reads %j as a write of %s with its content', (command, path, content) => {
    const reading = readIn(command);
    expect(reading.actions).toContainEqual({ type: 'write', path, content });
    expect(reading.bypasses).toEqual([]);
    expect(reading.unknownEffects).toEqual([]);
  });

  it('reads rm .git/hooks/pre-commit as a delete and a bypass', () => {
    const reading = readIn('rm .git/hooks/pre-commit');
    expect(reading.actions).toContainEqual({ type: 'delete', path: '.git/hooks/pre-commit' });
    expect(reading.bypasses).toHaveLength(1);
  });

  it.each([
    ["bash -c 'git add -A && git commit -qm x'", false],
    ["sh -c 'git commit -n -m x'", true],
    ['(git commit -n -m x)', true],
    ['$(git commit -n -m x)', true],
    ['echo "$(git commit -n -m x)"', true],
    ['`git commit -n -m x`', true],
    ['sudo -u root git commit -n -m x', true],
    ['env -i git commit -n -m x', true],
    ['git commit --no-veri -m x', true],
    ['git commit --no-v -m x', true],
    ['git -c core.hooksPath=/dev/null commit -m x', true],
    ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x', true],
    ['HOLDFAST_GATE=off git commit -m x', true],
  ])('reads %j as a commit (bypass: %s)', (command, bypass) => {
    const reading = readIn(command);
    expect(reading.actions.filter((action) => action.type === 'commit')).toHaveLength(1);
    expect(reading.bypasses.length > 0).toBe(bypass);
  });

  it('sees the subshell commit that landed a console.log, a secret, an out-of-scope file and no test run', () => {
    const command = [
      "printf 'console.log(1)\\n' > src/features/y.ts",
      `echo '{"aws":"AKIAIOSFODNN7EXAMPLE"}' > config/keys.json`,
      '(git add -A && git commit -qm "ship it")',
    ].join(' && ');
    expect(readIn(command).actions.filter((action) => action.type !== 'run')).toEqual([
      { type: 'write', path: 'src/features/y.ts', content: 'console.log(1)\n' },
      { type: 'write', path: 'config/keys.json', content: '{"aws":"AKIAIOSFODNN7EXAMPLE"}\n' },
      { type: 'commit', message: 'ship it' },
    ]);
  });
});

describe('readShellCommand on a real project', () => {
  it('reads sources and folders from disk, and resolves paths from the starting directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-shell-'));
    mkdirSync(join(root, 'src', 'lib'), { recursive: true });
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const reading = readShellCommand('cp a.ts lib && echo more >> a.ts && rm -r lib', { root, cwd: join(root, 'src'), readText: readTextFromDisk });
    expect(reading.actions.filter((action) => action.type !== 'run')).toEqual([
      { type: 'write', path: 'src/lib/a.ts', content: 'export const a = 1;\n' },
      { type: 'write', path: 'src/a.ts', content: 'export const a = 1;\nmore\n' },
      { type: 'delete', path: 'src/lib' },
    ]);
    expect(reading.unknownEffects).toEqual(['`rm -r lib` removes the folder lib and everything in it']);
  });
});

describe('commands that cannot be read', () => {
  it.each([
    ['git commit -m "x'],
    ['git commit -m x && echo $(('],
    ['if then fi commit'],
    ['git commit -m x <<'],
    ['case x in git commit'],
    ['a'.repeat(20) + '$(' + '('.repeat(400) + ' commit'],
  ])('reads %j as unknown and, since it could commit, a bypass', (command) => {
    const reading = readIn(command);
    expect(reading.unknownEffects.length).toBeGreaterThan(0);
    expect(reading.bypasses.length).toBeGreaterThan(0);
  });

  it('reads a failure while reading as unknown (and a possible bypass when it could commit), never as an exception', () => {
    const failing = {
      root: '/repo',
      cwd: '/repo',
      readText: () => {
        throw new Error('disk on fire');
      },
    };
    expect(readShellCommand('cp a b', failing)).toEqual({
      actions: [{ type: 'run', cmd: 'cp a b' }],
      bypasses: [],
      unknownEffects: ['`cp a b` could not be read (disk on fire)'],
    });
    expect(readShellCommand('cp a b && git commit -m x', failing).bypasses).toHaveLength(1);
  });

  it("does not read scripts outside the project: they are someone else's code, whose effects are unknown", () => {
    const reading = readShellCommand('source /opt/tool/env.sh && ./run.sh', {
      root: '/repo',
      cwd: '/repo',
      readText: (path) => (path === '/opt/tool/env.sh' ? 'echo x > /repo/src/a.ts\n' : path === '/repo/run.sh' ? 'echo y > src/b.ts\n' : undefined),
      isDirectory: () => false,
    });
    expect(reading.actions.filter((action) => action.type === 'write')).toEqual([{ type: 'write', path: 'src/b.ts', content: 'y\n' }]);
    expect(reading.unknownEffects).toEqual(['`source /opt/tool/env.sh` runs /opt/tool/env.sh, whose changes to files cannot be known in advance']);
  });

  it('does not call an unreadable program a bypass when nothing in the command could commit', () => {
    const reading = readIn('grep -rn "useHook" src | $PAGER');
    expect(reading.bypasses).toEqual([]);
    expect(reading.unknownEffects).toEqual(['`$PAGER` runs a program whose name cannot be read ($PAGER)']);
  });

  it('does not call a broken command without a commit a bypass', () => {
    const reading = readIn('echo "unterminated');
    expect(reading.unknownEffects.length).toBeGreaterThan(0);
    expect(reading.bypasses).toEqual([]);
  });

  it('stops a shell that keeps starting shells', () => {
    let command = 'git commit -n -m x';
    for (let level = 0; level < 40; level += 1) command = `bash <<'END${level}'\n${command}\nEND${level}`;
    const reading = readIn(command);
    expect(reading.bypasses.length).toBeGreaterThan(0);
    expect(reading.unknownEffects.length).toBeGreaterThan(0);
  });

  it('stops a function that calls itself', () => {
    const reading = readIn('f() { f; git commit -m x; }; f');
    expect(reading.unknownEffects.length).toBeGreaterThan(0);
  });
});

let heredocs = 0;

/** Ways to embed a command `x` so that it still runs. */
const NESTINGS: readonly ((command: string) => string)[] = [
  (command) => `( ${command} )`,
  (command) => `{ ${command}; }`,
  (command) => `$( ${command} )`,
  (command) => `echo "$( ${command} )"`,
  (command) => `bash -c ${singleQuoted(command)}`,
  (command) => `sh -c ${doubleQuoted(command)}`,
  (command) => `zsh -c ${singleQuoted(command)}`,
  (command) => `dash -c ${singleQuoted(command)}`,
  (command) => `bash -lc ${singleQuoted(command)}`,
  (command) => `sh -ec ${singleQuoted(command)}`,
  (command) => `eval ${singleQuoted(command)}`,
  (command) => `true && ${command}`,
  (command) => `false || ${command}`,
  (command) => `${command}; true`,
  (command) => `${command} & wait`,
  (command) => `echo a | ${command}`,
  (command) => `if true; then ${command}; fi`,
  (command) => `if false; then :; else ${command}; fi`,
  (command) => `for i in 1 2; do ${command}; done`,
  (command) => `while true; do ${command}; break; done`,
  (command) => `case a in a) ${command};; esac`,
  // One name per level (the inner command grows with each): a function that redefined and called its
  // own name would recurse for ever in bash too, which the reader rightly reports as unreadable.
  (command) => `f${command.length}() { ${command}; }; f${command.length}`,
  (command) => `cat <( ${command} )`,
  (command) => `echo ${singleQuoted(command)} | bash`,
  (command) => {
    heredocs += 1;
    return `bash <<'END${heredocs}'\n${command}\nEND${heredocs}\ntrue`;
  },
];

/** Wrappers that run their command (prefixes of a simple command). */
const WRAPPERS: readonly string[] = [
  'sudo ',
  'sudo -u root ',
  'sudo -E ',
  'sudo -u root -E -H ',
  'doas ',
  'doas -u root ',
  'env ',
  'env -i ',
  'env -u FOO ',
  'env FOO=1 ',
  'env -i PATH=/usr/bin ',
  'command ',
  'exec ',
  'nohup ',
  'time ',
  'time -p ',
  'timeout 30 ',
  'timeout -k 5 30 ',
  'timeout --signal=KILL 1m ',
  'nice ',
  'nice -n 10 ',
  'ionice -c 3 ',
  'stdbuf -oL ',
  'stdbuf -o L -e L ',
  'setsid ',
  'chronic ',
  'FOO=1 ',
  'A=1 B="x y" ',
  '/usr/bin/env ',
  'busybox ',
];

/** The core of each bypass spelling, as a simple git command. */
const BYPASS_CORES: readonly string[] = [
  'git commit -n -m x',
  'git commit --no-verify -m x',
  'git commit --no-veri -m x',
  'git commit -anm x',
  'git -c core.hooksPath=/dev/null commit -m x',
  'git -c alias.ci="commit -n" ci',
  'git config core.hooksPath /tmp/x',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x',
  'git commit-tree HEAD^{tree}',
  'rm -f .git/hooks/pre-commit',
];

const SAFE_CORES: readonly string[] = ['git commit -m x', 'git commit -am "fix -n"', 'git -c user.name=me commit -qm x'];

function embed(core: string, wrappers: readonly string[], nestings: readonly ((command: string) => string)[]): string {
  // Assignments only work before the program: `timeout 30 FOO=1 git` would run a program named FOO=1.
  const ordered = [...wrappers].sort((left, right) => Number(!/^[A-Z]/.test(left)) - Number(!/^[A-Z]/.test(right)));
  const wrapped = core.startsWith('GIT_CONFIG') || core.startsWith('rm') ? core : ordered.join('') + core;
  return nestings.reduce((command, nest) => nest(command), wrapped);
}

describe('a bypass wrapped and nested any way is still found', () => {
  it.each(WRAPPERS.flatMap((wrapper) => BYPASS_CORES.slice(0, 4).map((core) => [wrapper + core])))('finds %s', (command) => {
    expect(readIn(command).bypasses.length).toBeGreaterThan(0);
  });

  it.each(NESTINGS.flatMap((nest) => BYPASS_CORES.map((core) => [nest(core)])))('finds %s', (command) => {
    expect(readIn(command).bypasses.length).toBeGreaterThan(0);
  });

  it('finds every bypass core through any mix of wrappers and nestings (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BYPASS_CORES),
        fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 3 }),
        fc.array(fc.constantFrom(...NESTINGS), { maxLength: 4 }),
        (core, wrappers, nestings) => {
          const command = embed(core, wrappers, nestings);
          expect(readIn(command).bypasses.length, command).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads an ordinary commit through any mix of wrappers and nestings as a commit, and no bypass (property)', () => {
    // `$(git commit …)` as a command runs git's output as a program: unreadable, so it is left out here.
    const running = NESTINGS.filter((nest) => !nest('x').startsWith('$( '));
    fc.assert(
      fc.property(
        fc.constantFrom(...SAFE_CORES),
        fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 3 }),
        fc.array(fc.constantFrom(...running), { maxLength: 4 }),
        (core, wrappers, nestings) => {
          const command = embed(core, wrappers, nestings);
          const reading = readIn(command);
          expect(reading.bypasses, command).toEqual([]);
          expect(
            reading.actions.some((action) => action.type === 'commit'),
            command,
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('joins bypasses with && chains and finds each one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BYPASS_CORES, ...SAFE_CORES, 'npm test', 'ls'), { minLength: 1, maxLength: 6 }), (parts) => {
        const reading = readIn(parts.join(' && '));
        const expected = parts.some((part) => BYPASS_CORES.includes(part));
        expect(reading.bypasses.length > 0).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('never throws', () => {
  const shellish = fc.string({
    unit: fc.constantFrom(...'ab $(){}[]<>|&;\'"`\\\n\t=-#!*?~%^:'.split(''), 'git', 'commit', ' -n', 'EOF', '<<', '$((', '${', 'bash -c ', 'eval '),
  });

  it('returns a reading for any string (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), shellish), (command) => {
        const reading = readIn(command);
        expect(Array.isArray(reading.actions) && Array.isArray(reading.bypasses) && Array.isArray(reading.unknownEffects)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('returns a reading for deep nesting and long input', () => {
    for (const command of [
      '('.repeat(5000),
      '$('.repeat(3000),
      '{ '.repeat(3000),
      'echo a | '.repeat(3000) + 'cat',
      '"'.repeat(10001),
      `${'a=$(b) '.repeat(2000)}c`,
    ]) {
      const reading = readIn(command);
      expect(Array.isArray(reading.actions)).toBe(true);
    }
  });
});
