import { resolve } from 'node:path';
import type { CommandSite } from './command-site.js';
import { isProgramConfigKey, checkProgramValue } from './program-settings.js';
import { EMPTY_OUTPUT, UNKNOWN_OUTPUT } from '@holdfast/core/shell';
import type { Field, Output } from '@holdfast/core/shell';

const SKIPS_HOOKS = 'skips the pre-commit and commit-msg hooks, so the commit would not be judged';
const MOVES_HOOKS = 'points git at a different hooks folder (core.hooksPath), so the pre-commit hook would not run';

/** `--no-verify`, or a unique-enough prefix of it: git accepts `--no-veri` and `--no-v`. */
function isNoVerify(option: string): boolean {
  return option.length >= '--no-v'.length && '--no-verify'.startsWith(option);
}

function configKeyReason(key: string): string | undefined {
  if (key === 'core.hookspath') return MOVES_HOOKS;
  if (key.startsWith('include.') || key.startsWith('includeif.')) {
    return `makes git read configuration from another file (${key}), where the hooks folder can be moved`;
  }
  return undefined;
}

/** Git's global options (before the subcommand) that take the next word as their value. */
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--attr-source']);

interface GitGlobals {
  readonly cwd: string | undefined;
  readonly aliases: Map<string, string>;
  readonly subcommandIndex: number;
}

/** A `-c key=value` (or `--config-env key=VAR`): refuses hook-path moves, reads alias definitions. */
export function checkConfigField(field: Field, site: CommandSite, aliases: Map<string, string>): void {
  const known = field.literal ? field.text : field.knownPrefix;
  const equals = known.indexOf('=');
  const key = (equals < 0 ? known : known.slice(0, equals)).toLowerCase();
  if (!field.literal && equals < 0) {
    site.bypass(`passes git a configuration that cannot be read (${field.text}), which could move the hooks folder`);
    return;
  }
  const reason = configKeyReason(key);
  if (reason !== undefined) {
    site.bypass(reason);
    return;
  }
  if (isProgramConfigKey(key)) {
    const value = equals < 0 ? '' : field.text.slice(field.text.indexOf('=') + 1);
    checkProgramValue(`makes git run ${key}`, { ...field, text: value, knownPrefix: field.literal ? value : '' }, site);
    return;
  }
  if (key.startsWith('alias.')) {
    const name = (equals < 0 ? known : known.slice(0, equals)).slice('alias.'.length);
    if (!field.literal) {
      site.bypass(`defines git alias ${name} with a body that cannot be read, which could commit without the hooks`);
      return;
    }
    const body = equals < 0 ? '' : field.text.slice(equals + 1);
    checkAlias(name, body, site);
    aliases.set(name, body);
  }
}

function checkAlias(name: string, body: string, site: CommandSite): void {
  const commandLine = body.startsWith('!') ? body.slice(1) : `git ${body}`;
  const found = site.probe(commandLine);
  if (found.length > 0) site.bypass(`defines git alias ${name} as \`${body}\`, which would bypass the git hooks (${found.join('; ')})`);
}

function readGlobals(args: readonly Field[], site: CommandSite): GitGlobals | undefined {
  let cwd = site.cwd;
  const aliases = new Map<string, string>();
  let index = 0;
  while (index < args.length) {
    const field = args[index] as Field;
    if (!field.literal && !field.knownPrefix.startsWith('-') && field.knownPrefix !== '') break;
    if (!field.literal && field.knownPrefix === '') {
      site.unreadable(`passes git an option or subcommand that cannot be read (${field.text})`);
      return undefined;
    }
    const word = field.text;
    if (!word.startsWith('-')) break;
    const next = args[index + 1];
    const separate = GLOBAL_WITH_VALUE.has(word);
    const value: Field | undefined = separate ? next : undefined;
    if (word === '-c' || (word.startsWith('-c') && !word.startsWith('--'))) {
      const config = word === '-c' ? next : { ...field, text: word.slice(2), knownPrefix: field.knownPrefix.slice(2) };
      if (config !== undefined) checkConfigField(config, site, aliases);
    } else if (word === '--config-env' || word.startsWith('--config-env=')) {
      // `--config-env key=VAR`: the value comes from the environment, so only the key can be read.
      const config = word === '--config-env' ? next : { ...field, text: word.slice('--config-env='.length) };
      if (config !== undefined) {
        const key = config.text.includes('=') ? config.text.slice(0, config.text.indexOf('=') + 1) : '';
        checkConfigField({ ...config, literal: false, knownPrefix: key }, site, aliases);
      }
    } else if (word === '-C' || (word.startsWith('-C') && !word.startsWith('--'))) {
      const directory = word === '-C' ? next : { ...field, text: word.slice(2), knownPrefix: field.knownPrefix.slice(2) };
      cwd = directory === undefined || cwd === undefined ? undefined : site.resolve(directory, cwd);
    } else if (word === '--git-dir' || word.startsWith('--git-dir=')) {
      const directory =
        word === '--git-dir' ? next : { ...field, text: word.slice('--git-dir='.length), knownPrefix: field.knownPrefix.slice('--git-dir='.length) };
      checkGitDirectory(directory, cwd, site, '--git-dir ');
    }
    index += separate && value !== undefined ? 2 : 1;
  }
  return { cwd, aliases, subcommandIndex: index };
}

/** A git directory other than the project's own: its hooks, not the gate's, would run. */
export function checkGitDirectory(directory: Field | undefined, cwd: string | undefined, site: CommandSite, how: string): void {
  if (directory === undefined) return;
  if (!directory.literal || cwd === undefined) {
    site.bypass(`points git at a repository that cannot be read (${how}${directory.text}), whose hooks are not the gate's`);
    return;
  }
  const repository = site.repoPath(resolve(cwd, directory.text));
  if (repository !== '.git') site.bypass(`points git at another repository (${how}${directory.text}), whose hooks are not the gate's`);
}

/** git commit's long options that take the next word as their value (`--message x`). */
const COMMIT_VALUE_OPTIONS = [
  'file',
  'author',
  'date',
  'message',
  'reedit-message',
  'reuse-message',
  'fixup',
  'squash',
  'trailer',
  'template',
  'cleanup',
  'pathspec-from-file',
];
const COMMIT_FLAG_OPTIONS = [
  'quiet',
  'verbose',
  'reset-author',
  'signoff',
  'no-signoff',
  'edit',
  'no-edit',
  'status',
  'no-status',
  'gpg-sign',
  'no-gpg-sign',
  'all',
  'include',
  'interactive',
  'patch',
  'only',
  'no-verify',
  'verify',
  'dry-run',
  'short',
  'branch',
  'ahead-behind',
  'no-ahead-behind',
  'porcelain',
  'long',
  'null',
  'amend',
  'no-post-rewrite',
  'untracked-files',
  'pathspec-file-nul',
  'allow-empty',
  'allow-empty-message',
  'no-verbose',
  'no-quiet',
];
const COMMIT_OPTIONS = [...COMMIT_VALUE_OPTIONS, ...COMMIT_FLAG_OPTIONS];
/** Short options of git commit that take a value: the rest of the cluster, or the next word. */
const COMMIT_SHORT_WITH_VALUE = new Set(['m', 'F', 'c', 'C', 't']);
/** Short options whose value is optional and only ever stuck (`-Skey`, `-uno`). */
const COMMIT_SHORT_OPTIONAL = new Set(['S', 'u']);

/** The long option a (possibly abbreviated) name means, when it is unique. */
function commitLongOption(name: string): string | undefined {
  if (COMMIT_OPTIONS.includes(name)) return name;
  const candidates = COMMIT_OPTIONS.filter((option) => option.startsWith(name));
  return candidates.length === 1 ? candidates[0] : undefined;
}

function readCommit(args: readonly Field[], site: CommandSite, cwd: string | undefined): void {
  const messages: string[] = [];
  let file: Field | undefined;
  const value = (index: number): Field | undefined => args[index + 1];
  for (let index = 0; index < args.length; index += 1) {
    const field = args[index] as Field;
    const word = field.text;
    if (!field.literal && field.knownPrefix === '') {
      site.bypass(`passes git commit an argument that cannot be read (${word}), which could be --no-verify`);
      continue;
    }
    if (word === '--') break;
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const name = equals < 0 ? word.slice(2) : word.slice(2, equals);
      if (isNoVerify(`--${name}`)) site.bypass(`${SKIPS_HOOKS} (${word})`);
      const option = commitLongOption(name);
      if (option === undefined || !COMMIT_VALUE_OPTIONS.includes(option)) continue;
      const optionValue = equals < 0 ? value(index) : { ...field, text: word.slice(equals + 1) };
      if (equals < 0) index += 1;
      if (option === 'message' && optionValue !== undefined) messages.push(optionValue.text);
      if (option === 'file') file = optionValue;
      continue;
    }
    if (!word.startsWith('-') || word === '-') continue;
    for (let at = 1; at < word.length; at += 1) {
      const flag = word[at] as string;
      if (flag === 'n') site.bypass(`${SKIPS_HOOKS} (${word === '-n' ? '-n' : `-n in ${word}`})`);
      if (COMMIT_SHORT_OPTIONAL.has(flag)) break;
      if (COMMIT_SHORT_WITH_VALUE.has(flag)) {
        const stuck = word.slice(at + 1);
        const optionValue = stuck !== '' ? { ...field, text: stuck } : value(index);
        if (stuck === '') index += 1;
        if (flag === 'm' && optionValue !== undefined) messages.push(optionValue.text);
        if (flag === 'F') file = optionValue;
        break;
      }
    }
  }
  if (messages.length === 0 && file !== undefined) {
    if (file.text === '-') messages.push(site.stdin.text);
    else {
      const path = cwd === undefined ? undefined : site.resolve(file, cwd);
      if (path !== undefined) messages.push(site.readFile(path).text);
    }
  }
  site.commit(messages.join('\n\n'));
}

/** Subcommands that make commits or move branches without running the pre-commit hook. */
const HOOKLESS_COMMITS: Record<string, string> = {
  'commit-tree': 'writes a commit object directly (git commit-tree), without the pre-commit hook',
  replace: 'replaces objects in history (git replace), without any hook',
  'fast-import': 'writes commits directly (git fast-import), without the pre-commit hook',
  'filter-branch': 'rewrites commits (git filter-branch) without the pre-commit hook',
  'filter-repo': 'rewrites commits (git filter-repo) without the pre-commit hook',
};

/** Subcommands that take --no-verify to skip their hooks. */
const VERIFYING = new Set(['merge', 'pull', 'rebase', 'cherry-pick', 'am', 'revert', 'push', 'commit']);

const READ_ONLY = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'cat-file',
  'describe',
  'shortlog',
  'reflog',
  'rev-list',
  'merge-base',
  'name-rev',
  'for-each-ref',
  'show-ref',
  'help',
  'version',
  'var',
  'check-ignore',
  'check-attr',
  'count-objects',
  'whatchanged',
  'range-diff',
  'show-branch',
  'diff-tree',
  'diff-index',
  'diff-files',
  'cherry',
  'verify-commit',
  'verify-tag',
  'fsck',
  'remote',
  'branch',
  'tag',
  'fetch',
  'add',
  'push',
  'notes',
  'gc',
  'prune',
  'repack',
  'maintenance',
  'hash-object',
  'symbolic-ref',
  'update-index',
  'write-tree',
  'mktree',
  'mktag',
  'hook',
  'credential',
  'check-ref-format',
  'patch-id',
  'interpret-trailers',
  'stripspace',
  'column',
  'annotate',
  'rerere',
  'lfs',
]);

/** Subcommands that change files in the work tree in ways that depend on the repository's state. */
const TREE_CHANGING = new Set([
  'checkout',
  'switch',
  'restore',
  'apply',
  'am',
  'merge',
  'pull',
  'rebase',
  'cherry-pick',
  'revert',
  'clean',
  'checkout-index',
  'read-tree',
  'sparse-checkout',
  'worktree',
  'submodule',
  'bisect',
  'clone',
  'init',
  'format-patch',
  'archive',
  'bundle',
  'mergetool',
  'difftool',
  'merge-file',
  'stash',
  'reset',
]);

function hasOption(args: readonly Field[], names: readonly string[]): boolean {
  return args.some((field) => names.some((name) => field.text === name || field.text.startsWith(`${name}=`)));
}

function treeChange(subcommand: string, args: readonly Field[]): boolean {
  switch (subcommand) {
    case 'reset':
      return hasOption(args, ['--hard', '--merge', '--keep']);
    case 'stash': {
      const action = args[0]?.text;
      return action === undefined || !['list', 'show', 'drop', 'clear', 'create', 'store'].includes(action);
    }
    case 'clean':
      return !args.some((field) => field.text === '--dry-run' || /^-[a-zA-Z]*n/.test(field.text));
    case 'apply':
      return !hasOption(args, ['--check', '--stat', '--numstat', '--summary']);
    case 'worktree':
    case 'submodule':
      return !['list', 'status', 'summary', 'foreach'].includes(args[0]?.text ?? '');
    case 'bisect':
      return !['log', 'visualize', 'view'].includes(args[0]?.text ?? '');
    default:
      return true;
  }
}

/**
 * `git branch`, `tag`, `symbolic-ref`, `fetch` and `push` list things, or point a ref at a commit
 * (`git branch -f main stash@{0}`, `git fetch . x:main`) that no hook judged: those are checked after they ran.
 */
function movesRefs(subcommand: string, args: readonly Field[]): boolean {
  const operands = args.filter((field) => !field.text.startsWith('-'));
  switch (subcommand) {
    case 'branch':
    case 'tag': {
      const listing = args.some((field) =>
        /^(?:-[lvard]+|-D|--(?:list|delete|contains|no-contains|merged|no-merged|points-at|show-current|verbose|all|remotes|format|sort|column)(?:=.*)?)$/.test(
          field.text,
        ),
      );
      return operands.length > 0 && !listing;
    }
    case 'symbolic-ref':
      return operands.length >= 2;
    case 'fetch':
    case 'push':
      return (
        operands.some((field) => !field.literal || field.text.includes(':') || field.text === '.') ||
        args.some((field) => /^--(?:update-head-ok|mirror|all)$/.test(field.text))
      );
    default:
      return false;
  }
}

/** `git config`: refuses writes of the hooks folder, config includes, and aliases that skip hooks. */
function readConfig(args: readonly Field[], site: CommandSite): void {
  const withValue = new Set(['--file', '-f', '--blob', '--type', '--default', '--comment', '--value', '--url']);
  const writeFlags = new Set(['--add', '--replace-all', '--unset', '--unset-all', '--rename-section', '--remove-section', '-e', '--edit']);
  const readFlags = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '-l', '--list', '--get-color', '--get-colorbool']);
  const verbs: Record<string, 'read' | 'write'> = {
    get: 'read',
    list: 'read',
    set: 'write',
    unset: 'write',
    'rename-section': 'write',
    'remove-section': 'write',
    edit: 'write',
  };
  let mode: 'read' | 'write' | undefined;
  let sectionOperation = false;
  let edit = false;
  const positionals: Field[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const field = args[index] as Field;
    const word = field.text;
    if (index === 0 && field.literal && verbs[word] !== undefined) {
      mode = verbs[word];
      sectionOperation = word.endsWith('-section');
      edit = word === 'edit';
      continue;
    }
    if (field.literal && word.startsWith('-') && positionals.length === 0) {
      const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
      if (withValue.has(word)) index += 1;
      if (writeFlags.has(name)) {
        mode = 'write';
        sectionOperation ||= name.endsWith('-section');
        edit ||= name === '-e' || name === '--edit';
      }
      if (readFlags.has(name)) mode ??= 'read';
      continue;
    }
    positionals.push(field);
  }
  if (mode === undefined) mode = positionals.length >= 2 ? 'write' : 'read';
  if (mode === 'read') return;
  if (edit) {
    site.bypass('opens git configuration in an editor, where the hooks folder could be moved');
    return;
  }
  const keyField = positionals[0];
  if (keyField === undefined) return;
  if (!keyField.literal) {
    site.bypass(`changes a git configuration key that cannot be read (${keyField.text}), which could move the hooks folder`);
    return;
  }
  const key = keyField.text.toLowerCase();
  if (sectionOperation && (key === 'core' || key.startsWith('include'))) {
    site.bypass(`changes the whole [${keyField.text}] section of git configuration, which holds the hooks folder`);
    return;
  }
  const reason = configKeyReason(key);
  if (reason !== undefined) {
    site.bypass(reason.replace('points git at', 'sets git configuration to'));
    return;
  }
  if (isProgramConfigKey(key) && positionals.length >= 2) {
    site.bypass(`sets git configuration ${keyField.text}, a program git would then run inside later commands that look read-only, where no check sees it`);
    return;
  }
  if (key.startsWith('alias.')) {
    const body = positionals[1];
    if (body === undefined) return;
    if (!body.literal) site.bypass(`defines git alias ${keyField.text.slice(6)} with a body that cannot be read, which could commit without the hooks`);
    else checkAlias(keyField.text.slice(6), body.text, site);
  }
}

function readUpdateRef(args: readonly Field[], site: CommandSite): void {
  const deleting = args.some((field) => field.text === '-d');
  if (args.some((field) => field.text === '--stdin')) {
    site.bypass('updates refs from its input (git update-ref --stdin), which can move a branch to a commit made without the hooks');
    return;
  }
  const reference = args.find((field) => !field.text.startsWith('-'));
  if (reference === undefined || deleting) return;
  if (!reference.literal || reference.text === 'HEAD' || reference.text === '@' || reference.text.startsWith('refs/heads/')) {
    site.bypass(`moves a branch directly (git update-ref ${reference.text}), so a commit made without the hooks would land`);
  }
}

function gitPaths(args: readonly Field[]): Field[] {
  const paths: Field[] = [];
  let options = true;
  for (const field of args) {
    if (options && field.text === '--') options = false;
    else if (options && field.literal && field.text.startsWith('-')) continue;
    else paths.push(field);
  }
  return paths;
}

function readRemove(args: readonly Field[], site: CommandSite, cwd: string | undefined): void {
  if (hasOption(args, ['--cached', '-n', '--dry-run'])) return;
  for (const field of gitPaths(args)) {
    const path = site.resolve(field, cwd);
    if (path === undefined) continue;
    if (site.isDirectory(path)) site.unknown(`removes the folder ${field.text} from the work tree`);
    site.remove(path);
  }
}

function readMove(args: readonly Field[], site: CommandSite, cwd: string | undefined): void {
  const paths = gitPaths(args);
  const target = paths.pop();
  if (target === undefined || paths.length === 0) return;
  const destination = site.resolve(target, cwd);
  for (const field of paths) {
    const source = site.resolve(field, cwd);
    if (source === undefined || destination === undefined || site.isDirectory(source)) {
      site.unknown(`moves ${field.text} in ways that cannot be known in advance`);
      continue;
    }
    const into = site.isDirectory(destination) ? resolve(destination, source.split('/').pop() ?? '') : destination;
    site.write(into, site.readFile(source));
    site.remove(source);
  }
}

/** Reads one `git …` invocation: commits, hook bypasses, and what it does to the work tree. */
export function readGit(args: readonly Field[], site: CommandSite): Output {
  const globals = readGlobals(args, site);
  if (globals === undefined) return UNKNOWN_OUTPUT;
  let rest = args.slice(globals.subcommandIndex + 1);
  const subcommandField = args[globals.subcommandIndex];
  if (subcommandField === undefined) return EMPTY_OUTPUT;
  if (!subcommandField.literal) {
    site.unreadable(`runs a git subcommand that cannot be read (${subcommandField.text})`);
    return UNKNOWN_OUTPUT;
  }
  let subcommand = subcommandField.text;
  const alias = globals.aliases.get(subcommand);
  if (alias !== undefined) {
    if (alias.startsWith('!')) {
      site.runText(alias.slice(1), site.stdin, globals.cwd);
      return UNKNOWN_OUTPUT;
    }
    const words = alias.split(/\s+/).filter((word) => word !== '');
    subcommand = words[0] ?? '';
    rest = [...words.slice(1).map((text) => ({ ...subcommandField, text, knownPrefix: text })), ...rest];
  }
  const cwd = globals.cwd;
  if (VERIFYING.has(subcommand) && subcommand !== 'commit') {
    for (const field of rest) {
      if (field.text === '--') break;
      const name = field.text.includes('=') ? field.text.slice(0, field.text.indexOf('=')) : field.text;
      if (name.startsWith('--') && isNoVerify(name)) site.bypass(`skips git hooks (${field.text})`);
    }
  }
  const hookless = HOOKLESS_COMMITS[subcommand];
  if (hookless !== undefined) {
    site.bypass(hookless);
    return UNKNOWN_OUTPUT;
  }
  switch (subcommand) {
    case 'grep':
      // `-O<pager>` / `--open-files-in-pager=<pager>` runs a program on the matching files.
      for (const field of rest) {
        const pager = /^(?:-O|--open-files-in-pager(?:=|$))/.exec(field.text);
        if (pager !== null)
          checkProgramValue('opens the matches in a program (git grep -O)', { ...field, text: field.text.slice(pager[0].length), knownPrefix: '' }, site);
      }
      break;
    case 'commit':
      readCommit(rest, site, cwd);
      return UNKNOWN_OUTPUT;
    case 'config':
      readConfig(rest, site);
      return UNKNOWN_OUTPUT;
    case 'update-ref':
      readUpdateRef(rest, site);
      return UNKNOWN_OUTPUT;
    case 'rm':
      readRemove(rest, site, cwd);
      return UNKNOWN_OUTPUT;
    case 'mv':
      readMove(rest, site, cwd);
      return UNKNOWN_OUTPUT;
    case 'rebase': {
      rest.forEach((field, index) => {
        const exec =
          field.text === '-x' || field.text === '--exec'
            ? rest[index + 1]
            : field.text.startsWith('--exec=')
              ? { ...field, text: field.text.slice(7) }
              : undefined;
        if (exec === undefined) return;
        if (exec.literal) site.runText(exec.text, UNKNOWN_OUTPUT, cwd);
        else site.unreadable(`runs a command after each rebased commit that cannot be read (${exec.text})`);
      });
      break;
    }
  }
  if (TREE_CHANGING.has(subcommand)) {
    if (treeChange(subcommand, rest)) site.unknown(`changes files in the work tree (git ${subcommand})`);
    return UNKNOWN_OUTPUT;
  }
  if (!READ_ONLY.has(subcommand)) site.unknown(`runs git ${subcommand}, whose effects are not known`);
  else if (movesRefs(subcommand, rest))
    site.unknown(`may create or move a branch (git ${subcommand} ${rest.map((field) => field.text).join(' ')}), which is judged after it ran`);
  // `cd "$(git rev-parse --show-toplevel)"` is common enough to know where it goes.
  const inProject = cwd !== undefined && !site.repoPath(cwd).startsWith('..');
  if (subcommand === 'rev-parse' && rest.length === 1 && rest[0]?.text === '--show-toplevel' && inProject) return { text: `${site.root}\n`, known: true };
  return UNKNOWN_OUTPUT;
}
