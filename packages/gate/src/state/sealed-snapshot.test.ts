import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Action } from '@holdfast/core/contract';
import { checkActions, loadRulebook } from '@holdfast/core/rules';
import { checkChangesWith } from '../decide/check-changes.js';
import type { ChangeCheck } from '../decide/check-changes.js';
import { answerPostToolUse } from '../hook/post-tool.js';
import { sessionMirrorFolder } from './session-state.js';
import { beforeShellCall } from './snapshot.js';

const NOW = () => new Date('2026-11-30T12:00:00Z');
const LOGGED = `export const total = 1;\n${['console', 'log'].join('.')}(total);\n`;
const STORE = '.holdfast/snapshots.git';
const RECORD = `${STORE}/calls/t-toolu_1.json`;
const INDEX = `${STORE}/calls/t-toolu_1.index`;

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function judge(): Promise<ChangeCheck> {
  const rulebook = await loadRulebook();
  const actions: Action[] = [{ type: 'run', cmd: 'npm test' }];
  return checkChangesWith({ rulebook, checkActions, replay: () => ({ actions, observed: new Map() }) });
}

function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-sealed-snapshot-'));
  made.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 1;\n');
  writeFileSync(join(root, 'src', 'cart.test.ts'), 'export {};\n');
  writeFileSync(join(root, '.gitignore'), '.holdfast/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.email=a@b.test', '-c', 'user.name=a', 'commit', '-q', '-m', 'start');
  return root;
}

async function afterScript(root: string, script: string): Promise<string> {
  beforeShellCall(root, 's1', 'toolu_1', NOW);
  execFileSync('sh', ['-c', script], { cwd: root, stdio: 'ignore' });
  const event = JSON.stringify({
    session_id: 's1',
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm run build' },
    tool_response: { stdout: '', stderr: '' },
    tool_use_id: 'toolu_1',
  });
  return (await answerPostToolUse('claude-code', event, { env: {}, now: NOW, judge: await judge() })).stdout;
}

/** The command stages its own change into the call's before-index, so the snapshot taken before it seems to have it already. */
const POISON_INDEX = `cat > src/cart.ts <<'EOF'\n${LOGGED}EOF\nGIT_INDEX_FILE=${INDEX} git --git-dir=${STORE} --work-tree=. add src/cart.ts`;

describe('the snapshot taken before a call, sealed', () => {
  it('a command that edits the before-index to make its change look like the baseline is found: the index is put back and the change refused', async () => {
    const root = repository();
    const said = await afterScript(root, POISON_INDEX);
    expect(said).toMatch(/src\/cart\.ts: restored .*R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
  });

  it('without the mirror, the store index the before-index was linked to still vouches for it', async () => {
    const root = repository();
    const said = await afterScript(root, `${POISON_INDEX}\nrm -rf '${join(sessionMirrorFolder(root), 'calls')}'`);
    expect(said).toMatch(/src\/cart\.ts: restored .*R4 NOLOG/);
  });

  it('a deleted or rewritten record is put back from its mirror, and the change judged', async () => {
    const root = repository();
    const said = await afterScript(root, `printf '%s' '${LOGGED}' > src/cart.ts\nprintf '{"version":1,"readOnly":true,"session":"s1"}' > ${RECORD}`);
    expect(said).toMatch(/src\/cart\.ts: restored .*R4 NOLOG/);
  });

  it('with no copy outside the project to vouch for it, an edited before-index fails closed: the call is reported unchecked as tamper', async () => {
    const root = repository();
    const said = await afterScript(root, `${POISON_INDEX}\nrm -rf '${join(sessionMirrorFolder(root), 'calls')}'\ncp ${INDEX} ${STORE}/index`);
    expect(said).toMatch(/could not check what this command changed .*GATE TAMPER/);
  });
});
