import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { absentSettings, execPlan } from './exec-plan.js';
import { packageClosure } from './holdfast-installation.js';

function pkg(folder: string, dependencies: Record<string, string> = {}, peerDependencies: Record<string, string> = {}): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: folder, dependencies, peerDependencies }));
}

/**
 * A project that ran `npm install holdfast`: the gate, its dependencies (one nested), an optional peer of the core's
 * installed and one not, and a package of the team's own.
 */
function projectWithHoldfast(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-exec-plan-')));
  execFileSync('git', ['init', '-q'], { cwd: root });
  const modules = join(root, 'node_modules');
  pkg(join(modules, 'holdfast'), { '@holdfast/gate': '0.1.0', '@holdfast/lab': '0.1.0' });
  pkg(join(modules, '@holdfast', 'gate'), { '@holdfast/core': '0.1.0', yaml: '2', re2js: '2' });
  pkg(join(modules, '@holdfast', 'core'), { yaml: '2' }, { '@ast-grep/lang-python': '0.0.6', '@ast-grep/lang-go': '0.0.6' });
  pkg(join(modules, '@ast-grep', 'lang-python'));
  pkg(join(modules, '@holdfast', 'gate', 'node_modules', 're2js'));
  pkg(join(modules, 'yaml'));
  pkg(join(modules, '@holdfast', 'lab'), { react: '19' });
  pkg(join(modules, 'react'));
  return root;
}

describe('holdfast exec with holdfast installed inside the project', () => {
  it('finds every package the gate loads, nested or hoisted, installed optional peers included, once each', () => {
    const root = projectWithHoldfast();
    const modules = join(root, 'node_modules');
    expect(packageClosure(join(modules, '@holdfast', 'gate')).sort()).toEqual(
      [
        join(modules, '@ast-grep', 'lang-python'),
        join(modules, '@holdfast', 'core'),
        join(modules, '@holdfast', 'gate'),
        join(modules, '@holdfast', 'gate', 'node_modules', 're2js'),
        join(modules, 'yaml'),
      ].sort(),
    );
    expect(packageClosure(join(modules, 'missing'))).toEqual([]);
  });

  it('mounts the gate and what it loads read-only over the writable project, and leaves the team’s other packages writable', () => {
    const root = projectWithHoldfast();
    const modules = join(root, 'node_modules');
    const plan = execPlan({
      project: root,
      cwd: root,
      env: { HOME: '/nonexistent-home' },
      program: '/usr/bin/sh',
      programPaths: [],
      holdfastRoot: root,
      node: process.execPath,
      brokerDir: join(root, '.broker'),
      newSession: false,
    });
    expect(plan.writable).toContain(root);
    for (const folder of [
      join(modules, 'holdfast'),
      join(modules, '@holdfast', 'gate'),
      join(modules, '@holdfast', 'core'),
      join(modules, 'yaml'),
      join(modules, '@holdfast', 'gate', 'node_modules', 're2js'),
    ])
      expect(plan.readOnlyOver).toContain(folder);
    expect(plan.readOnlyOver).not.toContain(join(modules, 'react'));
    expect(plan.readOnlyOver).not.toContain(root);
  });

  it("keeps every agent's settings read-only: its folder in the project, its settings file in HOME (the rest of HOME's folder writable)", () => {
    const root = projectWithHoldfast();
    const plan = execPlan({
      project: root,
      cwd: root,
      env: { HOME: '/home/agent' },
      program: '/usr/bin/sh',
      programPaths: [],
      holdfastRoot: root,
      node: process.execPath,
      brokerDir: join(root, '.broker'),
      newSession: false,
    });
    for (const folder of ['.claude', '.codex', '.gemini', '.qwen', '.opencode', 'opencode.json', 'opencode.jsonc'])
      expect(plan.readOnlyOver).toContain(join(root, folder));
    for (const file of ['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json', '.qwen/settings.json', '.config/opencode'])
      expect(plan.readOnlyOver).toContain(join('/home/agent', file));
    expect(plan.writable).toEqual(expect.arrayContaining([join('/home/agent', '.gemini'), join('/home/agent', '.qwen')]));
    // OpenCode's sessions and snapshots are under ~/.local/share/opencode; its settings and plugins stay read-only.
    expect(plan.writable).toContain(join('/home/agent', '.local', 'share', 'opencode'));
  });

  it("keeps Copilot CLI's .github/hooks/ and .github/copilot/ and its user hooks and settings read-only, and makes them first when absent", () => {
    const root = projectWithHoldfast();
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-exec-copilot-home-')));
    const env = { HOME: home };
    const plan = execPlan({
      project: root,
      cwd: root,
      env,
      program: '/usr/bin/sh',
      programPaths: [],
      holdfastRoot: root,
      node: process.execPath,
      brokerDir: join(root, '.broker'),
      newSession: false,
    });
    for (const folder of [join(root, '.github', 'hooks'), join(root, '.github', 'copilot')]) expect(plan.readOnlyOver).toContain(folder);
    for (const place of ['settings.json', 'settings.local.json', 'hooks']) expect(plan.readOnlyOver).toContain(join(home, '.copilot', place));
    // Copilot CLI writes its config.json itself and stops when it cannot: the folder stays writable.
    expect(plan.writable).toContain(join(home, '.copilot'));
    expect(plan.readOnlyOver).not.toContain(join(home, '.copilot', 'config.json'));
    // Neither the project's .github/ nor the user's ~/.copilot/ exists yet: exec makes each place before the mount.
    expect(absentSettings(root, env).map((place) => place.path)).toEqual(
      expect.arrayContaining([
        join(root, '.github'),
        join(root, '.github', 'hooks'),
        join(root, '.github', 'copilot'),
        join(home, '.copilot', 'settings.json'),
        join(home, '.copilot', 'hooks'),
      ]),
    );
    // COPILOT_HOME moves the user folder, and the read-only places with it.
    const moved = execPlan({
      project: root,
      cwd: root,
      env: { HOME: home, COPILOT_HOME: join(home, 'elsewhere') },
      program: '/usr/bin/sh',
      programPaths: [],
      holdfastRoot: root,
      node: process.execPath,
      brokerDir: join(root, '.broker'),
      newSession: false,
    });
    expect(moved.readOnlyOver).toContain(join(home, 'elsewhere', 'settings.json'));
  });
});

describe('holdfast exec and the rule code a rulebook names', () => {
  it('mounts each custom check’s module and script read-only over the project, as it mounts the rulebook', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-exec-rule-code-')));
    execFileSync('git', ['init', '-q'], { cwd: root });
    mkdirSync(join(root, '.claude'));
    mkdirSync(join(root, 'checks'));
    writeFileSync(
      join(root, 'rules.yaml'),
      [
        'version: 1',
        'rules:',
        '  - { id: R7, name: NO-TODO, prose: No TODO., check: { kind: custom, module: checks/no-todo.mjs } }',
        '  - { id: R8, name: NO-FIXME, prose: No FIXME., check: { kind: custom, exec: [python3, checks/no_fixme.py, --strict] } }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, 'checks', 'no-todo.mjs'), 'export function check() { return []; }\n');
    writeFileSync(join(root, 'checks', 'no_fixme.py'), 'print("[]")\n');
    writeFileSync(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ command: 'holdfast hook claude-code "--rulebook" "rules.yaml"' }] }] } }),
    );
    const plan = execPlan({
      project: root,
      cwd: root,
      env: { HOME: '/nonexistent-home' },
      program: '/usr/bin/sh',
      programPaths: [],
      holdfastRoot: '/nonexistent-holdfast',
      node: process.execPath,
      brokerDir: join(root, '.broker'),
      newSession: false,
    });
    expect(plan.readOnlyOver).toContain(join(root, 'rules.yaml'));
    expect(plan.readOnlyOver).toContain(join(root, 'checks', 'no-todo.mjs'));
    expect(plan.readOnlyOver).toContain(join(root, 'checks', 'no_fixme.py'));
    expect(plan.readOnlyOver).not.toContain(join(root, '--strict'));
    expect(plan.readOnlyOver).not.toContain(join(root, 'python3'));
  });
});

describe("holdfast exec and OpenCode's settings folders", () => {
  it('makes .opencode/.gitignore as OpenCode writes it (it stops when it cannot write one into a read-only folder), with the folder when absent', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-exec-opencode-')));
    execFileSync('git', ['init', '-q'], { cwd: root });
    const places = (env: NodeJS.ProcessEnv) => absentSettings(root, env).map((place) => [place.path, place.kind, place.content]);
    const gitignore = 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore';
    expect(places({})).toEqual(
      expect.arrayContaining([
        [join(root, '.opencode'), 'folder', ''],
        [join(root, '.opencode', '.gitignore'), 'file', gitignore],
      ]),
    );
    // A file at the root would be in the team's next `git add -A`: never made.
    expect(places({}).map(([path]) => path)).not.toEqual(expect.arrayContaining([join(root, 'opencode.json')]));
    expect(places({}).map(([path]) => path)).not.toEqual(expect.arrayContaining([join(root, 'opencode.jsonc')]));
    mkdirSync(join(root, '.opencode', 'plugin'), { recursive: true });
    const withPlugin = places({ HOME: '/home/agent' });
    expect(withPlugin).not.toContainEqual([join(root, '.opencode'), 'folder', '']);
    expect(withPlugin).toContainEqual([join(root, '.opencode', '.gitignore'), 'file', gitignore]);
    expect(withPlugin).toContainEqual([join('/home/agent', '.config', 'opencode', '.gitignore'), 'file', gitignore]);
  });
});
