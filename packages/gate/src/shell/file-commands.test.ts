import { describe, expect, it } from 'vitest';
import type { Action } from '@holdfast/core/contract';
import { readIn } from '../test-support/shell.js';

const TREE = {
  files: {
    'src/a.ts': 'export const a = 1;\n',
    'run.sh': 'echo from-script > src/from-script.ts\n',
    'py.sh': '#!/usr/bin/env python3\nprint(1)\n',
  },
  folders: ['src/lib', 'dist'],
};

function effects(command: string, cwd?: string): Action[] {
  return readIn(command, TREE, cwd).actions.filter((action) => action.type === 'write' || action.type === 'delete');
}

const write = (path: string, content: string): Action => ({ type: 'write', path, content });
const remove = (path: string): Action => ({ type: 'delete', path });

/** Commands whose file effects are fully known: the exact writes and deletes, and no unknown effect. */
const KNOWN: readonly [string, Action[]][] = [
  ['echo hi > a.txt', [write('a.txt', 'hi\n')]],
  ['echo -n hi > a.txt', [write('a.txt', 'hi')]],
  ["echo -e 'a\\nb' > a.txt", [write('a.txt', 'a\nb\n')]],
  ["echo -e 'a\\cb' > a.txt", [write('a.txt', 'a')]],
  ["printf 'tab\\there\\x41\\101' > a.txt", [write('a.txt', 'tab\there\x41\x41')]],
  ['echo one two  three > a.txt', [write('a.txt', 'one two three\n')]],
  ["printf 'console.log(1)\\n' > src/features/y.ts", [write('src/features/y.ts', 'console.log(1)\n')]],
  ["printf '%s=%s\\n' key value > a.env", [write('a.env', 'key=value\n')]],
  ["printf '%s\\n' a b c > list.txt", [write('list.txt', 'a\nb\nc\n')]],
  [`echo '{"aws":"AKIAIOSFODNN7EXAMPLE"}' > config/keys.json`, [write('config/keys.json', '{"aws":"AKIAIOSFODNN7EXAMPLE"}\n')]],
  ['echo hi >> existing.txt', [write('existing.txt', 'old\nhi\n')]],
  ['echo hi >> new.txt', [write('new.txt', 'hi\n')]],
  ['echo hi >| a.txt', [write('a.txt', 'hi\n')]],
  ['echo hi &> a.txt', [write('a.txt', 'hi\n')]],
  ['echo hi &>> existing.txt', [write('existing.txt', 'old\nhi\n')]],
  ['echo hi 1> a.txt', [write('a.txt', 'hi\n')]],
  ['echo hi > a.txt 2>&1', [write('a.txt', 'hi\n')]],
  ['echo hi 2> err.txt', [write('err.txt', '')]],
  ['> empty.txt', [write('empty.txt', '')]],
  ['echo a > x.txt; echo b >> x.txt', [write('x.txt', 'a\n'), write('x.txt', 'a\nb\n')]],
  ['cat > src/lib/key.ts <<EOF\nexport const key = "AKIAIOSFODNN7EXAMPLE";\nEOF', [write('src/lib/key.ts', 'export const key = "AKIAIOSFODNN7EXAMPLE";\n')]],
  ["cat <<'EOF' > a.sh\necho $HOME `date`\nEOF", [write('a.sh', 'echo $HOME `date`\n')]],
  ['cat <<EOF > a.txt\nhome is $HOME\nEOF', [write('a.txt', 'home is /home/agent\n')]],
  ['cat <<-EOF > a.txt\n\tindented\n\tEOF', [write('a.txt', 'indented\n')]],
  ["cat <<< 'hello' > a.txt", [write('a.txt', 'hello\n')]],
  ['cat existing.txt src/a.ts > both.txt', [write('both.txt', 'old\nexport const a = 1;\n')]],
  ['cat < existing.txt > copy.txt', [write('copy.txt', 'old\n')]],
  ['echo x | tee a.txt b.txt', [write('a.txt', 'x\n'), write('b.txt', 'x\n')]],
  ['echo x | tee -a existing.txt', [write('existing.txt', 'old\nx\n')]],
  ['tee a.txt <<< hi', [write('a.txt', 'hi\n')]],
  ['echo x | tee a.txt > /dev/null', [write('a.txt', 'x\n')]],
  ['echo hi > ../outside.txt', [write('../outside.txt', 'hi\n')]],
  ['echo hi > /tmp/x.txt', [write('../tmp/x.txt', 'hi\n')]],
  ['echo hi > ~/notes.txt', [write('../home/agent/notes.txt', 'hi\n')]],
  ['echo hi > /dev/null', []],
  ['echo hi > /dev/stderr', []],
  ['cd src && echo hi > a.ts', [write('src/a.ts', 'hi\n')]],
  ['cd src; cd lib; echo hi > ../b.ts', [write('src/b.ts', 'hi\n')]],
  ['cd src && cd "$(git rev-parse --show-toplevel)" && echo hi > b.ts', [write('b.ts', 'hi\n')]],
  ['cd src && echo hi > "$(pwd)/b.ts"', [write('src/b.ts', 'hi\n')]],
  ['cd src && echo hi > "$PWD/c.ts"', [write('src/c.ts', 'hi\n')]],
  ['(cd src; echo a > x.ts); echo b > y.ts', [write('src/x.ts', 'a\n'), write('y.ts', 'b\n')]],
  ['pushd src && echo a > x.ts && popd && echo b > y.ts', [write('src/x.ts', 'a\n'), write('y.ts', 'b\n')]],
  ['cd src && cd - && echo a > x.ts', [write('x.ts', 'a\n')]],
  ['{ echo a; echo b; } > two.txt', [write('two.txt', 'a\nb\n')]],
  ['(echo a; echo b) > two.txt', [write('two.txt', 'a\nb\n')]],
  ['echo $(echo inner) > a.txt', [write('a.txt', 'inner\n')]],
  ['X=hello; echo "$X world" > a.txt', [write('a.txt', 'hello world\n')]],
  ['F=out.txt; echo hi > "$F"', [write('out.txt', 'hi\n')]],
  ['cp existing.txt b.txt', [write('b.txt', 'old\n')]],
  ['cp existing.txt src', [write('src/existing.txt', 'old\n')]],
  ['cp existing.txt src/a.ts src/lib/', [write('src/lib/existing.txt', 'old\n'), write('src/lib/a.ts', 'export const a = 1;\n')]],
  ['cp -t src/lib existing.txt', [write('src/lib/existing.txt', 'old\n')]],
  ['cp -f existing.txt new.txt', [write('new.txt', 'old\n')]],
  ['mv existing.txt b.txt', [write('b.txt', 'old\n'), remove('existing.txt')]],
  ['mv -f existing.txt src/', [write('src/existing.txt', 'old\n'), remove('existing.txt')]],
  ['install -m 644 existing.txt bin/x', [write('bin/x', 'old\n')]],
  ['install -d build/out', []],
  ['rm a.txt', [remove('a.txt')]],
  ['rm -f a.txt b.txt', [remove('a.txt'), remove('b.txt')]],
  ['rm -- -weird', [remove('-weird')]],
  ['touch new.txt', [write('new.txt', '')]],
  ['touch existing.txt', []],
  ['touch -c missing.txt', []],
  ['ln -s existing.txt link.txt', [write('link.txt', 'old\n')]],
  ['ln existing.txt hard.txt', [write('hard.txt', 'old\n')]],
  ['cd src && ln -s ../existing.txt link.txt', [write('src/link.txt', 'old\n')]],
  ['truncate -s 0 existing.txt', [write('existing.txt', '')]],
  ['dd if=existing.txt of=copy.txt', [write('copy.txt', 'old\n')]],
  ['echo data | dd of=out.bin status=none', [write('out.bin', 'data\n')]],
  ['bash -c "echo x > a.txt"', [write('a.txt', 'x\n')]],
  ["sh -c 'cd src && echo y > b.ts'", [write('src/b.ts', 'y\n')]],
  ['eval "echo z > c.txt"', [write('c.txt', 'z\n')]],
  ['bash run.sh', [write('src/from-script.ts', 'from-script\n')]],
  ['sh ./run.sh', [write('src/from-script.ts', 'from-script\n')]],
  ['./run.sh', [write('src/from-script.ts', 'from-script\n')]],
  ['source run.sh', [write('src/from-script.ts', 'from-script\n')]],
  ['. ./run.sh', [write('src/from-script.ts', 'from-script\n')]],
  ['echo "echo piped > p.txt" | bash', [write('p.txt', 'piped\n')]],
  ['f() { echo in-function > f.txt; }; f', [write('f.txt', 'in-function\n')]],
  ['if true; then echo yes > y.txt; else echo no > n.txt; fi', [write('y.txt', 'yes\n'), write('n.txt', 'no\n')]],
  ['for name in one; do echo $name > "$name.txt"; done', [write('one.txt', 'one\n')]],
  ['case x in x) rm old.txt ;; esac', [remove('old.txt')]],
  ['true && echo a > a.txt || echo b > b.txt', [write('a.txt', 'a\n'), write('b.txt', 'b\n')]],
  ['if test -f y; then F=a.txt; else F=a.txt; fi; echo hi > "$F"', [write('a.txt', 'hi\n')]],
  ['if test -f y; then cd src; cd ..; fi; echo hi > a.txt', [write('a.txt', 'hi\n')]],
  ['sudo -u root tee /etc/x <<< hi', [write('../etc/x', 'hi\n')]],
  ['env -C src touch new.ts', [write('src/new.ts', '')]],
  ['xargs rm <<< "a.txt b.txt"', [remove('a.txt'), remove('b.txt')]],
  ['echo a.txt | xargs -n1 rm -f', [remove('a.txt')]],
];

describe('file effects of shell commands', () => {
  it.each(KNOWN)('reads %j as exactly its writes and deletes', (command, expected) => {
    const reading = readIn(command, TREE);
    expect(effects(command)).toEqual(expected);
    expect(reading.unknownEffects).toEqual([]);
  });

  /** Commands whose effects are partly or wholly unknown: what can be seen is judged, the rest after the fact. */
  it.each([
    ['echo "key=$SECRET AKIAIOSFODNN7EXAMPLE" > a.env', [write('a.env', 'key=$SECRET AKIAIOSFODNN7EXAMPLE\n')]],
    ['cat <<EOF > a.ts\nconsole.log($X)\nEOF', [write('a.ts', 'console.log($X)\n')]],
    ['echo hi > "$FILE"', []],
    ['echo hi > src/*.ts', []],
    ['cd "$DIR" && echo hi > a.ts', []],
    ['cd $(mktemp -d) && touch x', []],
    ['if test -d src; then cd src; fi; echo a > b.txt', []],
    ['if x; then F=a.txt; else F=b.txt; fi; echo hi > "$F"', []],
    ['for d in src dist; do cd $d; done; touch x', []],
    ['while read line; do cd src; done; touch x', []],
    ['case $1 in a) cd src;; esac; touch x', []],
    ['ls > files.txt', [write('files.txt', '')]],
    ['npm test > log.txt', [write('log.txt', '')]],
    ['cp -r src dist/src', []],
    ['cp $SRC b.txt', []],
    ['mv src/lib elsewhere', [remove('src/lib')]],
    ['rm -rf src/lib', [remove('src/lib')]],
    ['rm *.ts', []],
    ['ln -s .. src/up', [write('src/up', '')]],
    ['truncate -s 10 existing.txt', [write('existing.txt', 'old\n')]],
    ["sed -i 's/old/console.log(1)/' existing.txt", [write('existing.txt', 'old\n\ns/old/console.log(1)/')]],
    ["sed -i.bak -e 's/a/b/' existing.txt", [write('existing.txt', 'old\n\ns/a/b/')]],
    ["sed --in-place 's/a/b/' existing.txt", [write('existing.txt', 'old\n\ns/a/b/')]],
    ["sed -Ei 's/a/b/' existing.txt", [write('existing.txt', 'old\n\ns/a/b/')]],
    ["sed -i '' 's/a/b/' existing.txt", [write('existing.txt', 'old\n\ns/a/b/')]],
    ["perl -pi -e 's/a/b/' existing.txt", [write('existing.txt', 'old\n\ns/a/b/')]],
    ["sed -n 's/a/b/w out.txt' existing.txt", []],
    ['curl -o out.bin https://example.com/x', [write('out.bin', '')]],
    ['curl -sSLo out.js https://example.com/x.js', [write('out.js', '')]],
    ['curl --output=out.js https://example.com/x.js', [write('out.js', '')]],
    ['curl -O https://example.com/x.js', []],
    ['wget -O page.html https://example.com', [write('page.html', '')]],
    ['wget https://example.com/x.tgz', []],
    ['tar xzf a.tgz', []],
    ['tar -xf a.tar -C src', []],
    ['tar czf out.tgz src', [write('out.tgz', '')]],
    ['unzip a.zip', []],
    ['gunzip a.gz', []],
    ['sort -o sorted.txt existing.txt', [write('sorted.txt', '')]],
    ['find . -name "*.tmp" -delete', []],
    ['find . -name "*.tmp" -exec rm {} \\;', []],
    ['exec > log.txt', [write('log.txt', '')]],
    ['/usr/bin/time -o t.txt npm test', [write('t.txt', '')]],
    ['node script.js', []],
    ['python3 tool.py --fix', []],
    ['ruby x.rb', []],
    ['npm run build', []],
    ['npm test', []],
    ['pnpm install', []],
    ['yarn build', []],
    ['npx tsc', []],
    ['make', []],
    ['./scripts/build.sh', []],
    ['./py.sh', []],
    ['bash run.sh arg', [write('src/from-script.ts', 'from-script\n')]],
    ['awk \'{ print > "out.txt" }\' existing.txt', []],
    ['docker run --rm -v "$PWD:/w" img', []],
    ['some-unknown-tool', []],
    ['git ls-files | xargs rm', []],
    ['eval "$CMD"', []],
    ['sudo -e /etc/hosts', []],
    ['git checkout -- .', []],
  ])('reads %j as partly unknown: writes %j and an unknown effect', (command, expected) => {
    const reading = readIn(command, TREE);
    expect(effects(command)).toEqual(expected);
    expect(reading.unknownEffects.length).toBeGreaterThan(0);
  });

  it.each([
    ['ls -la'],
    ['ls src | head -5'],
    ['cat existing.txt'],
    ['head -n 5 existing.txt'],
    ['tail -f log.txt'],
    ['grep -rn "TODO" src'],
    ['rg -n foo src'],
    ['wc -l existing.txt'],
    ['find . -name "*.ts" -not -path "./node_modules/*"'],
    ['echo hi'],
    ['printf "%s\\n" x'],
    ['pwd'],
    ['true'],
    ['test -f existing.txt'],
    ['[ -f existing.txt ] && echo yes'],
    ['[[ -n "$X" ]]'],
    ['git status'],
    ['git log --oneline -5'],
    ['git diff'],
    ['git show HEAD:src/a.ts'],
    ['git rev-parse --show-toplevel'],
    ['diff existing.txt src/a.ts'],
    ['sed -n "1,20p" existing.txt'],
    ["awk '{ print $1 }' existing.txt"],
    ['jq .name package.json'],
    ['sort existing.txt | uniq -c'],
    ['mkdir -p src/new'],
    ['which node'],
    ['command -v git'],
    ['cd src && ls'],
    ['X=1; export Y=2; echo "$X$Y"'],
    ['ls 2>/dev/null || true'],
    ['date +%s'],
    ['sleep 1'],
    ['env'],
    ['type git'],
  ])('reads %j as changing no file', (command) => {
    const reading = readIn(command, TREE);
    expect(effects(command)).toEqual([]);
    expect(reading.unknownEffects).toEqual([]);
    expect(reading.bypasses).toEqual([]);
  });
});

describe('run actions', () => {
  const runs = (command: string) =>
    readIn(command, TREE)
      .actions.filter((action) => action.type === 'run')
      .map((action) => (action.type === 'run' ? action.cmd : ''));

  it.each([
    ['cd x && npm test', ['cd x', 'cd x && npm test']],
    ['CI=1 npm test', ['npm test']],
    ['timeout 600 npm test', ['npm test']],
    ['sudo -E npm test', ['npm test']],
    ['npm test 2>&1 | tail -20', ['npm test', 'tail -20']],
    ['npm test > /dev/null', ['npm test']],
    ['(npm test)', ['npm test']],
    ['bash -lc "npm test"', ['bash -lc "npm test"', 'npm test']],
    ['echo $(npm test)', ['npm test', 'echo $(npm test)']],
    ['npx vitest run src/orders && git add -A', ['npx vitest run src/orders', 'git add -A']],
    ['ls; pwd', ['ls', 'pwd']],
  ])('reads %j as the runs %j', (command, expected) => {
    expect(runs(command)).toEqual(expected);
  });

  it('places a redirection target before the run that fills it (the shell opens it first)', () => {
    expect(readIn('echo hi > a.txt', TREE).actions).toEqual([write('a.txt', 'hi\n'), { type: 'run', cmd: 'echo hi' }]);
  });
});
