import { describe, expect, it } from 'vitest';
import { judge, write } from '../test-support/rulebooks.js';

// Built at run time so the repository never holds a literal that secret scanners flag.
const awsKeyId = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');
const password = ['Zt9', 'kLm2Qw8', 'vX4pRn7'].join('');

describe('R1 SECRET', () => {
  it('refuses a hardcoded AWS access key id, masked, with its line', async () => {
    const content = `export const config = {\n  region: 'eu-west-1',\n  accessKeyId: '${awsKeyId}',\n};\n`;
    const [result] = await judge('R1', [write('src/config.ts', content)]);
    expect(result).toMatchObject({ rule: 'R1', name: 'SECRET', actionIndex: 0, ok: false });
    expect(result?.detail).toMatch(
      /^R1 SECRET: write to "src\/config\.ts" hardcodes a credential at line 3 \(.+, AKIA.*…\).*; read it from the environment instead\.$/,
    );
    expect(result?.detail).not.toContain(awsKeyId);
  });

  it('refuses a password assigned to a literal', async () => {
    const [result] = await judge('R1', [write('src/db.ts', `const password = "${password}";\n`)]);
    expect(result?.ok).toBe(false);
    expect(result?.detail).not.toContain(password);
  });

  it('scans every written file, not only src/', async () => {
    const [result] = await judge('R1', [write('.env', `API_TOKEN=${password}\n`)]);
    expect(result?.ok).toBe(false);
  });

  it.each([
    ['an environment read', 'const key = process.env.PAYMENTS_API_KEY;\n'],
    ['a placeholder', 'const apiKey = "<your-api-key>";\n'],
    ['a type annotation', 'interface Login { password: string }\n'],
    ['plain code', 'export const total = (a: number, b: number) => a + b;\n'],
  ])('lets %s through', async (_, content) => {
    const [result] = await judge('R1', [write('src/a.ts', content)]);
    expect(result).toMatchObject({ ok: true, detail: 'R1 SECRET: write to "src/a.ts" hardcodes no credential.' });
  });

  it('judges only writes', async () => {
    expect(
      await judge('R1', [
        { type: 'delete', path: 'src/a.ts' },
        { type: 'run', cmd: `export TOKEN=${password}` },
      ]),
    ).toEqual([]);
  });
});
