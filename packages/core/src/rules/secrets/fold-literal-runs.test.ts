import { describe, expect, it } from 'vitest';
import { foldCharCodes, foldLiteralRuns } from './fold-literal-runs.js';
import { scanSecrets } from './index.js';
import type { SecretScanOptions } from './index.js';
import { fakeSecrets } from './test-support/fake-secrets.js';

const ALL: SecretScanOptions = { detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] };
const keys = fakeSecrets(91);
const github = keys.githubClassic;
const aws = keys.awsAccessKeyId;
const [head, tail] = [github.slice(0, 4), github.slice(4)];
const codes = (text: string) => [...text].map((character) => character.charCodeAt(0)).join(', ');

describe('literal runs outside TypeScript and JavaScript', () => {
  it.each([
    ['python +', 'app/settings.py', `TOKEN = "${head}" + "${tail}"\n`],
    ['python implicit, in parentheses over lines', 'app/settings.py', `TOKEN = (\n    "${head}"\n    '${tail}'\n)\n`],
    ['python line continuation', 'app/settings.py', `TOKEN = "${head}" + \\\n    "${tail}"\n`],
    ['go', 'internal/gh.go', `var token = "${head}" +\n\t"${tail}"\n`],
    ['java', 'src/main/java/Gh.java', `String token = "${head}" + "${tail.slice(0, 10)}" + "${tail.slice(10)}";\n`],
    ['ruby', 'lib/gh.rb', `TOKEN = '${head}' + '${tail}'\n`],
  ])('%s: the joined value is scanned', async (_name, path, content) => {
    expect(foldLiteralRuns(content, path).map((fold) => fold.value)).toContain(github);
    const findings = await scanSecrets(content, path, ALL);
    expect(findings.map((finding) => finding.message).join(' ')).toMatch(/concatenation/);
  });

  it('leaves alone what is not a run of literals: one literal, a name in the run, TypeScript (parsed instead), short words', async () => {
    expect(foldLiteralRuns(`TOKEN = "${github}"\n`, 'a.py')).toEqual([]);
    expect(foldLiteralRuns(`TOKEN = "${head}" + suffix + "${tail}"\n`, 'a.py')).toEqual([]);
    expect(foldLiteralRuns(`const t = '${head}' + '${tail}';\n`, 'src/a.ts')).toEqual([]);
    expect(foldLiteralRuns(`x = "a" + "b"\n`, 'a.go')).toEqual([]);
    expect(foldLiteralRuns(`title = "Reset " + "your " + "password"  # don't\n`, 'a.py').map((fold) => fold.value)).toEqual(['Reset your password']);
    expect(await scanSecrets(`title = "Reset " + "your " + "password"\nhint = "Use at least" " 12 characters"\n`, 'ui/labels.py', ALL)).toEqual([]);
  });
});

describe('String.fromCharCode of integer literals', () => {
  it('is folded and scanned; codes with a name among them are not', async () => {
    const content = `const id = String.fromCharCode(${codes(aws)});\n`;
    expect(foldCharCodes(content).map((fold) => fold.value)).toEqual([aws]);
    expect((await scanSecrets(content, 'src/storage/s3.ts', ALL)).map((finding) => finding.message).join(' ')).toMatch(/character codes/);
    expect(foldCharCodes(`String.fromCharCode(${codes(aws)}, offset)`)).toEqual([]);
    expect(await scanSecrets(`const label = String.fromCharCode(${codes('Hello, world')});\n`, 'src/a.ts', ALL)).toEqual([]);
  });
});
