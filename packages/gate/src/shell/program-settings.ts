import type { CommandSite } from './command-site.js';
import type { Field } from '@holdfast/core/shell';

/**
 * Settings that name a program for another program to run: git's `diff.external`, `core.fsmonitor`,
 * filter drivers, pagers and editors; `GIT_EXTERNAL_DIFF`, `LESSOPEN`, `BASH_ENV`, `NODE_OPTIONS`.
 * A command the reader finds read-only (`git diff`, `git status`, `less`) runs whatever they name,
 * unseen: set for one command they make its effects unknown (judged after it ran) and their command
 * line is read for bypasses; set for good (`git config`) they are a bypass, since every later call
 * of git would run the program outside any check.
 */

/** Git configuration keys (lower case) whose value is a command git runs. */
const PROGRAM_CONFIG =
  /^(?:core\.(?:pager|editor|fsmonitor|sshcommand|askpass|gitproxy|alternaterefscommand)|sequence\.editor|diff\.external|interactive\.difffilter|gpg\.program|credential\.helper|uploadpack\.packobjectshook|web\.browser|pager\..+|diff\..+\.(?:command|textconv)|filter\..+\.(?:clean|smudge|process)|merge\..+\.driver|(?:difftool|mergetool|browser|man)\..+\.(?:cmd|path)|gpg\..+\.program|credential\..+\.helper|remote\..+\.(?:uploadpack|receivepack)|submodule\..+\.update|init\.templatedir)$/;

export function isProgramConfigKey(key: string): boolean {
  return PROGRAM_CONFIG.test(key.toLowerCase());
}

/** Variables whose value is a command line some program runs. */
const COMMAND_VARIABLES = new Set([
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'PAGER',
  'GIT_EDITOR',
  'EDITOR',
  'VISUAL',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_PROXY_COMMAND',
  'LESSOPEN',
  'LESSCLOSE',
  'MANPAGER',
  'BROWSER',
  'PROMPT_COMMAND',
]);

/** Variables that make a program load or find other code: its effects are no longer the program's own. */
const LOADING_VARIABLES = new Set([
  'BASH_ENV',
  'ENV',
  'NODE_OPTIONS',
  'PERL5OPT',
  'RUBYOPT',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'LD_PRELOAD',
  'LD_AUDIT',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'PATH',
]);

/** Judges one variable set for a command (prefix, `export`, `env X=`); true when it is one of these. */
export function checkProgramVariable(name: string, field: Field, site: CommandSite): boolean {
  if (COMMAND_VARIABLES.has(name)) {
    checkProgramValue(`sets ${name}`, field, site);
    return true;
  }
  if (LOADING_VARIABLES.has(name)) {
    site.unknown(`sets ${name}, which makes the programs it starts load or find other code, so their effects cannot be known in advance`);
    return true;
  }
  return false;
}

/**
 * A program named for one command: its effects are unknown (the call is judged after it ran), and a
 * command line that can be read is read for bypasses (`sh -c 'git commit -n'`).
 */
export function checkProgramValue(what: string, field: Field, site: CommandSite): void {
  site.unknown(`${what}, a program that runs unseen, so its effects cannot be known in advance`);
  if (!field.literal) return;
  // LESSOPEN's `|cmd %s` / `||cmd %s`, a git alias-style `!cmd`: the rest is the command line.
  const commandLine = field.text.replace(/^\s*(?:\|\|?|!)/, '');
  const found = site.probe(commandLine);
  if (found.length > 0) site.bypass(`${what} to a command that would bypass the git hooks (${found.join('; ')})`);
}

/** Program settings in the text of a git configuration file (`[diff]\n\texternal = …`), as lower-case keys. */
export function programSettingsIn(configText: string): string[] {
  const found: string[] = [];
  let section = '';
  for (const line of configText.split('\n')) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header !== null) {
      section = header[2] === undefined ? (header[1] as string) : `${header[1] as string}.${header[2]}`;
      const rest = line.slice(header[0].length);
      const inline = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=/.exec(rest);
      if (inline !== null && isProgramConfigKey(`${section}.${inline[1] as string}`)) found.push(`${section}.${inline[1] as string}`.toLowerCase());
      continue;
    }
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=|$)/.exec(line);
    if (entry !== null && section !== '' && isProgramConfigKey(`${section}.${entry[1] as string}`))
      found.push(`${section}.${entry[1] as string}`.toLowerCase());
  }
  return found;
}
