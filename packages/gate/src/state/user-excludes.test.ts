import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook } from '@holdfast/core/contract';
import { checkActions, loadRulebook } from '@holdfast/core/rules';
import { checkChangesWith } from '../decide/check-changes.js';
import { answerPostToolUse } from '../hook/post-tool.js';
import { beforeShellCall } from './snapshot.js';
import { projectRepo } from '../test-support/git-repo.js';

const NOW = () => new Date('2026-12-01T12:00:00Z');
const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };

let rulebook: Rulebook;
beforeAll(async () => {
  rulebook = await loadRulebook();
});

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A home whose git config names an excludes file, and an XDG ignore file: both hide `src/features/`. */
function homeThatHides(): void {
  const home = mkdtempSync(join(tmpdir(), 'holdfast-home-'));
  writeFileSync(join(home, 'excludes'), 'src/features/\n');
  writeFileSync(join(home, '.gitconfig'), `[core]\n\texcludesFile = ${join(home, 'excludes')}\n`);
  mkdirSync(join(home, '.config', 'git'), { recursive: true });
  writeFileSync(join(home, '.config', 'git', 'ignore'), 'src/features/\n');
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, '.config');
}

describe("the user's own ignore files", () => {
  it.each([
    ['core.excludesFile in ~/.gitconfig', true],
    ['~/.config/git/ignore alone', false],
  ])('never hide a file from the check after a call: %s', async (_name, withConfig) => {
    homeThatHides();
    if (!withConfig) writeFileSync(join(process.env.HOME as string, '.gitconfig'), '');
    const root = projectRepo('holdfast-excludes-');
    // git itself (the same home) hides the file: the gate must not.
    mkdirSync(join(root, 'src', 'features'), { recursive: true });
    writeFileSync(join(root, 'src', 'features', 'probe.ts'), 'x');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, env: process.env }).toString()).not.toContain('features');
    execFileSync('rm', [join(root, 'src', 'features', 'probe.ts')]);
    beforeShellCall(root, 's1', 'toolu_1', NOW);
    writeFileSync(join(root, 'src', 'features', 'late.ts'), `export const late = () => console.${'log'}(1);\n`);
    const event = JSON.stringify({
      session_id: 's1',
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'node build.js' },
      tool_response: { stdout: '', stderr: '' },
      tool_use_id: 'toolu_1',
    });
    const judge = checkChangesWith({ rulebook, checkActions, replay: () => ({ actions: [{ type: 'run', cmd: 'npm test' }], observed: new Map() }) });
    const answer = await answerPostToolUse('claude-code', event, { env: {}, now: NOW, judge });
    expect(answer.stdout).toMatch(/src\/features\/late\.ts: deleted.*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'features', 'late.ts'))).toBe(false);
  });
});
