import { describe, expect, it } from 'vitest';
import { actionsFromDiff } from './rescore-agent-arm.js';

describe('actionsFromDiff', () => {
  it('reads a git diff as writes of the added lines and deletes', () => {
    const diff = [
      'diff --git a/src/tax.ts b/src/tax.ts',
      'index 1111111..2222222 100644',
      '--- a/src/tax.ts',
      '+++ b/src/tax.ts',
      '@@ -1,3 +1,4 @@',
      ' const a = 1;',
      '+console.log(a);',
      '-const b = 2;',
      '+const b = 3;',
      'diff --git a/docs/old.md b/docs/old.md',
      'deleted file mode 100644',
      'index 3333333..0000000',
      '--- a/docs/old.md',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-gone',
      'diff --git a/src/new.ts b/src/new.ts',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/src/new.ts',
      '@@ -0,0 +1 @@',
      '+export const x = "+++ not a header";',
      '',
    ].join('\n');
    expect(actionsFromDiff(diff)).toEqual([
      { type: 'write', path: 'src/tax.ts', content: 'console.log(a);\nconst b = 3;' },
      { type: 'delete', path: 'docs/old.md' },
      { type: 'write', path: 'src/new.ts', content: 'export const x = "+++ not a header";' },
    ]);
  });
});
