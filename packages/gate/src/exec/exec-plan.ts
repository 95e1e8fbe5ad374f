import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EXEC_GATE_DIR, EXEC_MARKER, inside, installationOf } from './containment.js';
import type { ConfinementPolicy } from './containment.js';
import { HOOK_ENTRY_VARIABLE, HOOK_NODE_VARIABLE, hookEntryPath, packageClosure } from './holdfast-installation.js';
import { OPENCODE_SETTINGS, projectRoot } from '../io/index.js';
import { ruleCodeFiles, safeParseRulebook } from '@holdfast/core/rules';
import { findProjectRulebook, protectedPlaces } from '../decide/index.js';
import type { BrokerJudging } from './gate-broker.js';

/** What `holdfast exec` knows when it confines an agent. */
export interface ExecPlanInput {
  /** The project root (the git work tree's top, or the folder exec was started in). */
  readonly project: string;
  readonly cwd: string;
  /** The caller's environment: HOME, CODEX_HOME, CLAUDE_CONFIG_DIR are read from it. */
  readonly env: NodeJS.ProcessEnv;
  /** The agent's program, resolved; its installation stays readable. */
  readonly program: string;
  /** Absolute paths among the agent's arguments (a script it runs). */
  readonly programPaths: readonly string[];
  /** holdfast's own package folder and node: the hook runs from them. */
  readonly holdfastRoot: string;
  readonly node: string;
  /** The host folder holding the gate broker's socket, mounted read-only at EXEC_GATE_DIR. */
  readonly brokerDir: string;
  readonly newSession: boolean;
}

/** The text of each of `files` that can be read; one that is missing or unreadable names no command. */
function readableTexts(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    try {
      return [readFileSync(file, 'utf8')];
    } catch {
      return [];
    }
  });
}

/** Node and hook entry of every holdfast command installed in the project's agent configs and git hooks. */
function installedHookPaths(configFiles: readonly string[]): string[] {
  const paths: string[] = [];
  for (const text of readableTexts(configFiles)) {
    for (const match of text.matchAll(/holdfast_(node|entry)=\\?"((?:[^"\\]|\\[^"])+)\\?"/g)) {
      const path = (match[2] as string).replace(/\\(.)/g, '$1');
      if (!path.startsWith('/')) continue;
      // The entry is <package>/dist/hook-bundle/hook.cjs: the whole package is what it loads.
      paths.push(match[1] === 'entry' ? resolve(dirname(path), '..', '..') : installationOf(path));
    }
  }
  return paths;
}

/** The rulebooks named by installed hook commands (`--rulebook FILE`, relative to the project). */
function installedRulebooks(project: string, configFiles: readonly string[]): string[] {
  const files: string[] = [];
  for (const text of readableTexts(configFiles)) {
    for (const match of text.matchAll(/\\?"--rulebook\\?" \\?"((?:[^"\\]|\\[^"])+)\\?"/g))
      files.push(resolve(project, (match[1] as string).replace(/\\(.)/g, '$1')));
  }
  return files;
}

/** The rule code the rulebooks name (each custom check's module, program, scripts), absolute; a rulebook that does not parse names none. */
function rulebookRuleCode(project: string, rulebooks: readonly string[]): string[] {
  const files: string[] = [];
  for (const file of rulebooks) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const parsed = safeParseRulebook(text, file);
    if (parsed.ok) files.push(...ruleCodeFiles(parsed.rulebook).map((path) => resolve(project, path)));
  }
  return files;
}

/**
 * What the hook loads from an installation folder: the gate package and every package it loads
 * (the core, yaml, re2js, ast-grep, …), and the `holdfast` package whose bin the git hooks name.
 * Packages only holdfast's lab or app need stay writable: the hook never loads them.
 */
function installedPackages(root: string): string[] {
  const cli = join(root, 'node_modules', 'holdfast');
  return [...packageClosure(join(root, 'node_modules', '@holdfast', 'gate')), ...(existsSync(cli) ? [realpathSync(cli)] : [])];
}

/** Copilot CLI's user folder: COPILOT_HOME, else ~/.copilot. */
function copilotHome(env: NodeJS.ProcessEnv): string {
  return env.COPILOT_HOME !== undefined && env.COPILOT_HOME !== '' ? env.COPILOT_HOME : join(env.HOME ?? '', '.copilot');
}

/**
 * The agent's own state folders (its login, its sessions): writable, since the agent cannot work
 * without them, but the files in them that hold settings and hooks are mounted read-only on top.
 */
function agentState(env: NodeJS.ProcessEnv): { writable: string[]; readOnly: string[] } {
  const home = env.HOME ?? '';
  const claude = env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== '' ? env.CLAUDE_CONFIG_DIR : join(home, '.claude');
  const codex = env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home, '.codex');
  const gemini = join(home, '.gemini');
  const qwen = join(home, '.qwen');
  // OpenCode's user folder holds its settings and plugins only (its sessions are under ~/.local/share/opencode): all read-only.
  const opencode = join(home, OPENCODE_SETTINGS.user);
  const copilot = copilotHome(env);
  return {
    // Copilot CLI's config.json stays writable: Copilot CLI writes it itself and stops (exit 1) when it cannot
    // (tried with 1.0.102); the hooks and `disableAllHooks` it honours are in settings.json and hooks/.
    writable: [claude, join(home, '.claude.json'), codex, gemini, qwen, join(home, '.local', 'share', 'opencode'), copilot],
    readOnly: [
      opencode,
      join(claude, 'settings.json'),
      join(codex, 'config.toml'),
      join(codex, 'hooks.json'),
      join(gemini, 'settings.json'),
      join(gemini, 'trustedFolders.json'),
      join(qwen, 'settings.json'),
      join(qwen, 'trustedFolders.json'),
      join(copilot, 'settings.json'),
      join(copilot, 'settings.local.json'),
      join(copilot, 'hooks'),
      join(home, '.gitconfig'),
      join(home, '.config', 'git'),
    ],
  };
}

/**
 * What `holdfast exec` mounts: the system read-only, a private /tmp and HOME, the project writable
 * with every place the gate lives in it mounted read-only over it (the agents' hook settings, git's
 * hooks and config, `.holdfast/`, the rulebook), holdfast's install and the hook entry read-only, and
 * the broker's socket where the hook finds it.
 */
export function execPlan(input: ExecPlanInput): ConfinementPolicy {
  const home = input.env.HOME ?? '';
  // A project under HOME is mounted back over the private HOME, like everything else that must stay.
  const hidden = ['/tmp', ...(home !== '' && home !== '/' && existsSync(home) && input.project !== home ? [home] : [])];
  const project = projectRoot(input.project);
  const configs = [
    join(project.realRoot, '.claude', 'settings.json'),
    join(project.realRoot, '.claude', 'settings.local.json'),
    join(project.realRoot, '.codex', 'hooks.json'),
    join(project.realRoot, '.gemini', 'settings.json'),
    join(project.realRoot, '.qwen', 'settings.json'),
    join(project.realRoot, '.opencode', 'plugin', 'holdfast-gate.js'),
    join(project.realRoot, '.github', 'hooks', 'holdfast.json'),
    join(project.realRoot, '.git', 'hooks', 'pre-commit'),
  ];
  const places = protectedPlaces(project, { rulebookFile: undefined, home: undefined }).map((place) => place.absolute);
  // The rest of the layout git reads but never writes for ordinary work: info/ (attributes, excludes,
  // grafts) read-only; a commondir or alternates file made anew is seen by the broker (repositoryLayout).
  const layout = [join(project.realRoot, '.git', 'info'), join(project.realRoot, '.git', 'commondir'), join(project.realRoot, '.git', 'config.worktree')];
  const rulebooks = installedRulebooks(project.realRoot, configs);
  // The rule code a rulebook runs as a check is the gate as much as the rulebook is.
  const found = findProjectRulebook(project.realRoot, input.env);
  const ruleCode = rulebookRuleCode(project.realRoot, [...rulebooks, ...(found.state === 'found' ? [found.path] : [])]);
  const installs = [
    installationOf(input.program),
    installationOf(input.node),
    input.holdfastRoot,
    ...input.programPaths.map(installationOf),
    ...installedHookPaths(configs),
    // Installed inside the project (`npm install holdfast`), the install is the project itself: its
    // holdfast packages and everything they load are what must not be written.
    ...(inside(input.holdfastRoot, project.realRoot) ? installedPackages(input.holdfastRoot) : []),
  ];
  const state = agentState(input.env);
  const outsideProject = (path: string) => !inside(path, project.realRoot);
  return {
    // The agent talks to its model and needs its key; HOME is hidden whole, so nothing there to mask.
    network: 'shared',
    secretVariables: 'kept',
    masked: [],
    hidden,
    readable: installs.filter(outsideProject),
    writable: [project.realRoot, ...state.writable.filter(outsideProject)],
    readOnlyOver: [
      ...installs.filter((path) => !outsideProject(path) && path !== project.realRoot),
      ...places,
      ...layout,
      ...rulebooks,
      ...ruleCode,
      ...state.readOnly,
    ],
    mounted: [{ from: input.brokerDir, to: EXEC_GATE_DIR, access: 'read' }],
    // The installed agent commands name no path (they find holdfast from the project): here they run the gate's
    // own copy, which the sandbox can read and not write, whatever the project's node_modules holds.
    env: { [EXEC_MARKER]: '1', TMPDIR: '/tmp', [HOOK_ENTRY_VARIABLE]: hookEntryPath(), [HOOK_NODE_VARIABLE]: input.node },
    cwd: input.cwd,
    newSession: input.newSession,
  };
}

/**
 * How the broker will judge, read once when exec starts from the hook commands installed then (the
 * sandbox cannot write them): each agent's rulebook, made absolute (without one, the project's own
 * as the hook would find it, so a folder's rulebook deeper in the project never counts), and whether
 * its command is `--observe`.
 */
export function brokerJudging(project: string, cwd: string, env: NodeJS.ProcessEnv): BrokerJudging {
  const root = projectRoot(project).realRoot;
  const files = {
    'claude-code': [join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json')],
    codex: [join(root, '.codex', 'hooks.json')],
    'gemini-cli': [join(root, '.gemini', 'settings.json')],
    'qwen-code': [join(root, '.qwen', 'settings.json')],
    opencode: [join(root, '.opencode', 'plugin', 'holdfast-gate.js')],
    'copilot-cli': [join(root, '.github', 'hooks', 'holdfast.json')],
    git: [join(root, '.git', 'hooks', 'pre-commit'), join(root, '.git', 'hooks', 'reference-transaction')],
  } as const;
  const found = findProjectRulebook(root, env);
  const fallback = found.state === 'found' ? found.path : join(root, 'holdfast', 'rulebook.yaml');
  const rulebook = (agent: keyof typeof files) => installedRulebooks(root, files[agent])[0] ?? fallback;
  const observing = (agent: keyof typeof files) =>
    files[agent].some((file) => {
      try {
        return /\\?"--observe\\?"/.test(readFileSync(file, 'utf8'));
      } catch {
        return false;
      }
    });
  return {
    rulebooks: {
      'claude-code': rulebook('claude-code'),
      codex: rulebook('codex'),
      'gemini-cli': rulebook('gemini-cli'),
      'qwen-code': rulebook('qwen-code'),
      opencode: rulebook('opencode'),
      'copilot-cli': rulebook('copilot-cli'),
      git: rulebook('git'),
    },
    observe: {
      'claude-code': observing('claude-code'),
      codex: observing('codex'),
      'gemini-cli': observing('gemini-cli'),
      'qwen-code': observing('qwen-code'),
      opencode: observing('opencode'),
      'copilot-cli': observing('copilot-cli'),
    },
    claudeProjectDir: cwd,
  };
}

/** A file's bytes, a folder's entries (each read the same way), or that it is absent: what the layout record holds per place. */
function placeState(path: string, depth = 0): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 'absent';
  if (stat.isDirectory()) {
    if (depth > 2) return 'folder';
    return `folder(${readdirSync(path)
      .sort()
      .map((name) => `${name}=${placeState(join(path, name), depth + 1)}`)
      .join(',')})`;
  }
  try {
    return `file:${readFileSync(path).toString('base64')}`;
  } catch {
    return 'unreadable';
  }
}

/**
 * The repository's layout as exec found it: where `.git` points, `commondir`, alternates, the
 * config files, `info/` (attributes, excludes, grafts, sparse-checkout) and the hooks. Git writes
 * none of these for an agent's ordinary work (objects, refs, logs, the index and HEAD are not part
 * of it), so the broker compares it before every decision and takes any change as tamper.
 */
export function repositoryLayout(project: string): ReadonlyMap<string, string> {
  const root = projectRoot(project).realRoot;
  const dotGit = join(root, '.git');
  const places = new Map<string, string>([['.git', statSync(dotGit, { throwIfNoEntry: false })?.isFile() === true ? placeState(dotGit) : 'folder']]);
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(places.get('.git')?.startsWith('file:') === true ? readFileSync(dotGit, 'utf8') : '')?.[1];
  const gitDir = pointer === undefined ? dotGit : resolve(root, pointer);
  const commondir = join(gitDir, 'commondir');
  places.set('commondir', placeState(commondir));
  const common = existsSync(commondir) ? resolve(gitDir, readFileSync(commondir, 'utf8').trim()) : gitDir;
  for (const [name, path] of [
    ['config', join(common, 'config')],
    ['config.worktree', join(gitDir, 'config.worktree')],
    ['info', join(common, 'info')],
    ['hooks', join(common, 'hooks')],
    ['objects/info/alternates', join(common, 'objects', 'info', 'alternates')],
    ['objects/info/http-alternates', join(common, 'objects', 'info', 'http-alternates')],
  ] as const)
    places.set(name, placeState(path));
  return places;
}

/** What changed in the layout since `before`, as the places that changed (empty when nothing did). */
export function layoutChanges(before: ReadonlyMap<string, string>, project: string): string[] {
  const now = repositoryLayout(project);
  return [...now].filter(([place, state]) => before.get(place) !== state).map(([place]) => place);
}

/** A settings place `exec` makes before the agent starts, so the read-only mount has something to cover, and removes after if it is still as made. */
export interface AbsentSetting {
  readonly path: string;
  /** A folder (the project's `.claude/`, `.codex/`: all of it read-only) or a file with neutral content. */
  readonly kind: 'folder' | 'file';
  readonly content: string;
}

/** What OpenCode 1.18.33 writes into `.opencode/.gitignore` and `~/.config/opencode/.gitignore`, byte for byte. */
const OPENCODE_GITIGNORE = 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore';

/**
 * The agents' settings places that do not exist yet. A read-only mount needs something to cover, and
 * a file the agent could create there (`~/.claude/settings.json` with `disableAllHooks`, a project
 * `.claude/settings.local.json`, `~/.codex/config.toml`, `~/.gemini/trustedFolders.json` marking the
 * project untrusted) would switch the gate off for the rest of the
 * session. `exec` makes each as an empty folder or a neutral file (`{}`, an empty TOML), mounts it
 * read-only with the rest, and removes what is still as it made it when the agent is done.
 */
export function absentSettings(project: string, env: NodeJS.ProcessEnv): AbsentSetting[] {
  const root = projectRoot(project).realRoot;
  const home = env.HOME ?? '';
  const claude = env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== '' ? env.CLAUDE_CONFIG_DIR : join(home, '.claude');
  const codex = env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home, '.codex');
  const places: AbsentSetting[] = [
    { path: join(root, '.claude'), kind: 'folder', content: '' },
    { path: join(root, '.codex'), kind: 'folder', content: '' },
    { path: join(root, '.gemini'), kind: 'folder', content: '' },
    { path: join(root, '.qwen'), kind: 'folder', content: '' },
    // A plugin in .opencode/plugin/ loads on its own. OpenCode writes a .gitignore into each of its settings folders
    // at start and stops when it cannot (seen with 1.18.33), and that file is never committed (it lists itself): exec
    // makes it as OpenCode would, then mounts the folder read-only. opencode.json(c) at the root are not made when
    // absent: a file there is one `git add -A` commits (the team's tree, not a folder git leaves alone); an existing
    // one is read-only, and a tool call's write to a new one is GATE TAMPER.
    { path: join(root, '.opencode'), kind: 'folder', content: '' },
    { path: join(root, '.opencode', '.gitignore'), kind: 'file', content: OPENCODE_GITIGNORE },
    // Copilot CLI's project hooks and settings, below a .github/ made first when there is none.
    { path: join(root, '.github'), kind: 'folder', content: '' },
    { path: join(root, '.github', 'hooks'), kind: 'folder', content: '' },
    { path: join(root, '.github', 'copilot'), kind: 'folder', content: '' },
    ...(home === ''
      ? []
      : [
          { path: join(claude, 'settings.json'), kind: 'file' as const, content: '{}\n' },
          { path: join(codex, 'config.toml'), kind: 'file' as const, content: '' },
          // Codex's user hooks (more hooks of the agent's own) and Gemini CLI's trusted folders (a project
          // marked untrusted has its .gemini/settings.json, holdfast's hook with it, ignored).
          { path: join(codex, 'hooks.json'), kind: 'file' as const, content: '{"hooks":{}}\n' },
          { path: join(home, '.gemini', 'settings.json'), kind: 'file' as const, content: '{}\n' },
          { path: join(home, '.qwen', 'settings.json'), kind: 'file' as const, content: '{}\n' },
          { path: join(home, OPENCODE_SETTINGS.user), kind: 'folder' as const, content: '' },
          { path: join(home, OPENCODE_SETTINGS.user, '.gitignore'), kind: 'file' as const, content: OPENCODE_GITIGNORE },
          { path: join(home, '.gemini', 'trustedFolders.json'), kind: 'file' as const, content: '{}\n' },
          // Copilot CLI's user hooks and settings (`disableAllHooks` there switches every hook off).
          { path: join(copilotHome(env), 'settings.json'), kind: 'file' as const, content: '{}\n' },
          { path: join(copilotHome(env), 'settings.local.json'), kind: 'file' as const, content: '{}\n' },
          { path: join(copilotHome(env), 'hooks'), kind: 'folder' as const, content: '' },
        ]),
  ];
  return places.filter((place) => !existsSync(place.path));
}
