import { describe, expect, it } from 'vitest';
import { judgeWith, ruleWith } from '../test-support/kind-rulebook.js';
import { write } from '../test-support/rulebooks.js';

const refuse = ruleWith('kind: dependency');
const withRecord = ruleWith('kind: dependency\nneeds: ["docs/adr/*.md"]');
const before = JSON.stringify({ name: 'app', scripts: { test: 'vitest' }, dependencies: { zod: '4.0.0' } }, null, 2);
const pkg = (dependencies: Record<string, string>, scripts = { test: 'vitest' }) => JSON.stringify({ name: 'app', scripts, dependencies }, null, 2);

describe('dependency check', () => {
  it('refuses a new dependency in package.json, naming it', async () => {
    const [result] = await judgeWith(refuse, [write('package.json', pkg({ zod: '4.0.0', 'date-fns': '3.6.0' }))], { 'package.json': before });
    expect(result).toMatchObject({ ok: false });
    expect(result?.detail).toMatch(/brings a dependency \(new dependencies date-fns 3\.6\.0\)/);
  });

  it('refuses a changed version, and allows an edit that leaves dependencies alone', async () => {
    const [changed] = await judgeWith(refuse, [write('package.json', pkg({ zod: '4.1.0' }))], { 'package.json': before });
    expect(changed?.detail).toMatch(/changed dependencies zod 4\.0\.0 -> 4\.1\.0/);
    const [scripts] = await judgeWith(refuse, [write('package.json', pkg({ zod: '4.0.0' }, { test: 'vitest run' }))], { 'package.json': before });
    expect(scripts).toMatchObject({ ok: true });
  });

  it('lets a new dependency through with a decision record written in the same round', async () => {
    const actions = [write('package.json', pkg({ zod: '4.0.0', 'date-fns': '3.6.0' })), write('docs/adr/0007-date-fns.md', '# Use date-fns')];
    const [result] = await judgeWith(withRecord, actions, { 'package.json': before });
    expect(result).toMatchObject({ ok: true });
    expect(result?.detail).toMatch(/comes with "docs\/adr\/0007-date-fns.md"/);
    const [without] = await judgeWith(withRecord, actions.slice(0, 1), { 'package.json': before });
    expect(without?.detail).toMatch(/write the decision record \(docs\/adr\/\*\.md\)/);
  });

  it('reads every manifest kind', async () => {
    const cases: [string, string, string][] = [
      ['requirements.txt', 'requests==2.31\n', 'requests==2.31\nflask==3.0\n'],
      ['pyproject.toml', '[project]\ndependencies = ["attrs"]\n', '[project]\ndependencies = ["attrs", "httpx"]\n'],
      ['go.mod', 'module x\n\ngo 1.22\n', 'module x\n\ngo 1.22\n\nrequire github.com/pkg/errors v0.9.1\n'],
      ['Cargo.toml', '[package]\nname = "x"\n', '[package]\nname = "x"\n[dependencies]\nrand = "0.8"\n'],
    ];
    for (const [path, old, next] of cases) {
      const [result] = await judgeWith(refuse, [write(path, next)], { [path]: old });
      expect(result, path).toMatchObject({ ok: false });
      const [same] = await judgeWith(refuse, [write(path, old)], { [path]: old });
      expect(same, path).toMatchObject({ ok: true });
    }
  });

  it('counts every dependency of a new manifest as new', async () => {
    const [result] = await judgeWith(refuse, [write('tools/package.json', pkg({ left: '1.0.0' }))]);
    expect(result?.detail).toMatch(/new dependencies left 1\.0\.0/);
  });

  it('fails closed when the earlier content is unknown or the manifest does not parse', async () => {
    const [unknown] = await judgeWith(refuse, [write('package.json', pkg({ zod: '4.0.0' }))], ['package.json']);
    expect(unknown?.detail).toMatch(/cannot be compared/);
    const [broken] = await judgeWith(refuse, [write('package.json', '{ "dependencies": ')], { 'package.json': before });
    expect(broken?.detail).toMatch(/cannot be read as package\.json/);
  });

  it('judges only the manifests it is given', async () => {
    const onlyGo = ruleWith('kind: dependency\nmanifests: [go.mod]');
    expect(await judgeWith(onlyGo, [write('package.json', pkg({ x: '1' }))])).toEqual([]);
  });
});
