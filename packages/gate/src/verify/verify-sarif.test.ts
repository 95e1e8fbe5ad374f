import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { checkActions } from '@holdfast/core/rules';
import { parseRulebook } from '@holdfast/core/rules';
import { commitFiles, git, gitTestEnv, projectRepo } from '../test-support/git-repo.js';
import { verifyRange } from './verify.js';
import { verifySarif } from './verify-sarif.js';

const schema = JSON.parse(readFileSync(new URL('./__fixtures__/sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as object;
// ajv-formats is CommonJS: its default export arrives wrapped when loaded from ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

function validator() {
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

async function reportOf(files: Record<string, string>) {
  const root = projectRepo();
  const base = git(root, 'rev-parse', 'HEAD');
  commitFiles(root, files, 'change "quoted" & <odd>');
  return verifyRange({ root, env: gitTestEnv(), base, head: 'HEAD', rulebookPath: 'holdfast/rulebook.yaml', parseRulebook, checkActions });
}

describe('verify SARIF against the published SARIF 2.1.0 schema', () => {
  it('a log with results (every rule kind, a path that needs encoding) is valid', async () => {
    const report = await reportOf({
      'src/features/pay ment.ts': "export const pay = () => fetch('/pay');\nconsole.log(pay);\n",
      'docs/notes #1.md': 'outside src\n',
      'src/orders.test.ts': '',
      'src/config.ts': 'export const password = "Zr8kq2Lm9vX4pT7wQ3nBc6Yd";\n',
    });
    const log = verifySarif(report);
    expect(log.runs[0]?.results.length).toBeGreaterThanOrEqual(5);
    expect(new Set(log.runs[0]?.results.map((result) => result.ruleId))).toEqual(new Set(['R1', 'R2', 'R3', 'R4', 'R5']));
    const validate = validator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(JSON.stringify(log)).toContain('src/features/pay%20ment.ts');
  });

  it('a clean log (no results) is valid, and the validator does refuse a log that breaks the schema', async () => {
    const validate = validator();
    const clean = verifySarif(await reportOf({ 'src/billing.ts': 'export const billing = 1;\n', 'src/billing.test.ts': "import './billing';\n" }));
    expect(clean.runs[0]?.results).toEqual([]);
    expect(validate(clean), JSON.stringify(validate.errors)).toBe(true);
    const broken = JSON.parse(JSON.stringify(verifySarif(await reportOf({ 'src/orders.ts': 'console.log(1);\n' }))));
    broken.runs[0].results[0].level = 'fatal';
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.some((error) => error.instancePath === '/runs/0/results/0/level')).toBe(true);
  });
});
