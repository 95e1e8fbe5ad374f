import type { Action } from '../contract/index.js';

/** Why a shell command would switch the git gate off; the gate refuses these outright. */
export interface GateBypass {
  readonly segment: string;
  readonly reason: string;
}

export interface ShellReading {
  readonly actions: Action[];
  readonly bypass: GateBypass | undefined;
}

/**
 * Splits a shell command line on `&&`, `||`, `;`, `|`, `&` and newlines, outside quotes. Good enough to
 * see `npm test && git commit -m x` as a test run followed by a commit; it is not a shell parser.
 */
export function splitShellSegments(command: string): string[] {
  const segments: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (quote !== undefined) {
      if (char === '\\' && quote === '"' && index + 1 < command.length) {
        current += char + (command[index + 1] as string);
        index += 1;
        continue;
      }
      if (char === quote) quote = undefined;
      current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      current += char;
      continue;
    }
    if (char === '\\' && index + 1 < command.length) {
      current += char + (command[index + 1] as string);
      index += 1;
      continue;
    }
    if (char === ';' || char === '\n' || char === '|' || char === '&') {
      if (current.trim() !== '') segments.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') segments.push(current.trim());
  return segments;
}

/** Words of one segment, quotes removed (no expansion: `$VAR` stays literal). */
export function shellWords(segment: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] as string;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < segment.length) {
        current += segment[index + 1] as string;
        index += 1;
      } else current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
      continue;
    }
    if (char === '\\' && index + 1 < segment.length) {
      current += segment[index + 1] as string;
      inWord = true;
      index += 1;
      continue;
    }
    if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      continue;
    }
    current += char;
    inWord = true;
  }
  if (inWord) words.push(current);
  return words;
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const WRAPPERS = new Set(['sudo', 'env', 'command', 'exec', 'nohup', 'time']);

/** The words from the program on: leading `FOO=bar` assignments and wrappers such as `env` are dropped. */
function programWords(words: string[]): string[] {
  let start = 0;
  while (start < words.length) {
    const word = words[start] as string;
    if (ENV_ASSIGNMENT.test(word) || WRAPPERS.has(word)) start += 1;
    else break;
  }
  return words.slice(start);
}

/** Git's global options that take a separate value (`git -C dir commit`). */
const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

interface GitInvocation {
  subcommand: string | undefined;
  configs: string[];
  rest: string[];
}

function readGit(words: string[]): GitInvocation | undefined {
  const program = words[0];
  if (program === undefined || (program !== 'git' && !program.endsWith('/git'))) return undefined;
  const configs: string[] = [];
  let index = 1;
  while (index < words.length) {
    const word = words[index] as string;
    if (word === '-c') {
      configs.push(words[index + 1] ?? '');
      index += 2;
    } else if (word.startsWith('-c') && word.length > 2) {
      configs.push(word.slice(2));
      index += 1;
    } else if (word.startsWith('--config-env')) {
      configs.push(word.includes('=') ? word.slice(word.indexOf('=') + 1) : (words[index + 1] ?? ''));
      index += word.includes('=') ? 1 : 2;
    } else if (GIT_OPTIONS_WITH_VALUE.has(word)) index += 2;
    else if (word.startsWith('-')) index += 1;
    else break;
  }
  return { subcommand: words[index], configs, rest: words.slice(index + 1) };
}

function commitMessage(rest: string[]): string {
  for (let index = 0; index < rest.length; index += 1) {
    const word = rest[index] as string;
    if (word === '-m' || word === '--message') return rest[index + 1] ?? '';
    if (word.startsWith('--message=')) return word.slice('--message='.length);
    if (word.startsWith('-m') && word.length > 2) return word.slice(2);
  }
  return '';
}

/** `-n` is `--no-verify` for `git commit`, also inside a cluster such as `-an`. */
function skipsHooks(rest: string[]): boolean {
  for (const word of rest) {
    if (word === '--') break;
    if (word === '--no-verify') return true;
    if (/^-[a-zA-Z]+$/.test(word)) {
      // `-m` and friends take a value: letters after them are the value, not flags.
      const flags = word.slice(1);
      for (const flag of flags) {
        if (flag === 'n') return true;
        if ('mFcCtSu'.includes(flag)) break;
      }
    }
  }
  return false;
}

function hooksPathConfig(configs: string[]): string | undefined {
  return configs.find((config) => config.toLowerCase().startsWith('core.hookspath'));
}

/**
 * Reads a shell command as actions: each `git commit` is a commit, each segment matching the test
 * pattern a test run, anything else a plain run. A commit that skips hooks or points git at another
 * hooks folder is a bypass of the git gate.
 */
export function readShellCommand(command: string): ShellReading {
  const actions: Action[] = [];
  let bypass: GateBypass | undefined;
  for (const segment of splitShellSegments(command)) {
    const words = programWords(shellWords(segment));
    const git = readGit(words);
    if (git !== undefined) {
      const hooksPath = hooksPathConfig(git.configs);
      if (hooksPath !== undefined && bypass === undefined) {
        bypass = { segment, reason: `\`${segment}\` sets ${hooksPath}, which would switch off the holdfast git hook` };
      }
      if (git.subcommand === 'config' && git.rest.some((word) => word.toLowerCase() === 'core.hookspath') && bypass === undefined) {
        bypass = { segment, reason: `\`${segment}\` changes core.hooksPath, which would switch off the holdfast git hook` };
      }
      if (git.subcommand === 'commit') {
        if (skipsHooks(git.rest) && bypass === undefined) {
          bypass = { segment, reason: `\`${segment}\` skips git hooks (--no-verify / -n), which would switch off the holdfast git hook` };
        }
        actions.push({ type: 'commit', message: commitMessage(git.rest) });
        continue;
      }
    }
    actions.push({ type: 'run', cmd: segment });
  }
  // An empty command is still a run: the caller judges it like any other.
  if (actions.length === 0) actions.push({ type: 'run', cmd: command.trim() });
  return { actions, bypass };
}

/** True when the command (or one of its segments) is the test run of the rulebook's order rule. */
export function isTestRun(action: Action, testPattern: { test(text: string): boolean } | undefined): boolean {
  return action.type === 'run' && testPattern !== undefined && testPattern.test(action.cmd);
}
