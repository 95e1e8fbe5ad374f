import { basename, dirname, resolve } from 'node:path';
import type { CommandSite, ProgramHandler } from './command-site.js';
import { sedScriptMayWrite } from './sed-script.js';
import { EMPTY_OUTPUT, UNKNOWN_OUTPUT, joinOutputs } from '@holdfast/core/shell';
import type { Field } from '@holdfast/core/shell';

/** A path under the git hooks folder (or the folder, or `.git` itself), relative to the root. */
export function isHookPath(repoPath: string): boolean {
  return repoPath === '.git' || repoPath === '.git/hooks' || repoPath.startsWith('.git/hooks/');
}

/** A path that cannot be read but may name the hooks: `"$(git rev-parse --git-path hooks)"/pre-commit`, `$GIT_DIR/hooks`. */
function mentionsHooks(field: Field): boolean {
  return /hooks|pre-commit|commit-msg|\.git\b|GIT_DIR/i.test(field.text);
}

interface ParsedArguments {
  readonly flags: Set<string>;
  readonly values: Map<string, Field>;
  readonly operands: Field[];
}

/**
 * Splits arguments into flags, option values and operands. `withValue` names the options (short
 * letters or long names) that take a value; short clusters (`-rf`) are opened up, `--` ends options.
 */
function parseArguments(args: readonly Field[], withValue: readonly string[]): ParsedArguments {
  const flags = new Set<string>();
  const values = new Map<string, Field>();
  const operands: Field[] = [];
  let options = true;
  for (let index = 0; index < args.length; index += 1) {
    const field = args[index] as Field;
    const word = field.text;
    if (!options || !field.literal || !word.startsWith('-') || word === '-') {
      operands.push(field);
      continue;
    }
    if (word === '--') {
      options = false;
      continue;
    }
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const name = equals < 0 ? word.slice(2) : word.slice(2, equals);
      flags.add(name);
      if (equals >= 0) values.set(name, { ...field, text: word.slice(equals + 1), knownPrefix: word.slice(equals + 1) });
      else if (withValue.includes(name)) {
        const next = args[index + 1];
        if (next !== undefined) values.set(name, next);
        index += 1;
      }
      continue;
    }
    for (let at = 1; at < word.length; at += 1) {
      const letter = word[at] as string;
      flags.add(letter);
      if (!withValue.includes(letter)) continue;
      const stuck = word.slice(at + 1);
      if (stuck !== '') values.set(letter, { ...field, text: stuck, knownPrefix: stuck });
      else {
        const next = args[index + 1];
        if (next !== undefined) values.set(letter, next);
        index += 1;
      }
      break;
    }
  }
  return { flags, values, operands };
}

function has(parsed: ParsedArguments, ...names: string[]): boolean {
  return names.some((name) => parsed.flags.has(name));
}

function fieldPath(site: CommandSite, field: Field): string | undefined {
  if (field.descriptor) return undefined;
  return site.resolve(field);
}

/** Backslash escapes of `echo -e` and printf formats; `\c` stops all further output. */
function unescapeEcho(text: string): { text: string; stop: boolean } {
  const stopAt = text.search(/\\c/);
  const kept = stopAt < 0 ? text : text.slice(0, stopAt);
  const map: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  const replaced = kept.replace(/\\(0[0-7]{0,3}|x[0-9a-fA-F]{1,2}|[abefnrtv\\])/g, (_match, code: string) => {
    if (code.startsWith('0')) return String.fromCharCode(parseInt(code.slice(1) || '0', 8));
    if (code.startsWith('x')) return String.fromCharCode(parseInt(code.slice(1), 16));
    return map[code] ?? code;
  });
  return { text: replaced, stop: stopAt >= 0 };
}

export const echo: ProgramHandler = (args) => {
  let newline = true;
  let escapes = false;
  let index = 0;
  while (index < args.length && /^-[neE]+$/.test(args[index]?.text ?? '') && args[index]?.literal === true) {
    const flags = (args[index] as Field).text;
    if (flags.includes('n')) newline = false;
    if (flags.includes('e')) escapes = true;
    if (flags.includes('E')) escapes = false;
    index += 1;
  }
  const words = args.slice(index);
  let text = words.map((field) => field.text).join(' ');
  if (escapes) {
    const unescaped = unescapeEcho(text);
    text = unescaped.text;
    if (unescaped.stop) newline = false;
  }
  return { text: newline ? `${text}\n` : text, known: words.every((field) => field.literal) };
};

function formatOnce(format: string, args: string[]): string {
  let out = '';
  for (let index = 0; index < format.length; index += 1) {
    const char = format[index] as string;
    if (char === '\\' && index + 1 < format.length) {
      // printf's escapes: octal is `\NNN` (no leading 0 needed), hex `\xHH`.
      const escape = /^\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)/s.exec(format.slice(index)) as RegExpExecArray;
      const code = escape[1] as string;
      out += /^[0-7]/.test(code) ? String.fromCharCode(parseInt(code, 8)) : unescapeEcho(`\\${code}`).text;
      index += escape[0].length - 1;
      continue;
    }
    if (char !== '%') {
      out += char;
      continue;
    }
    const spec = /^%[-+ #0]*[0-9*]*(?:\.[0-9*]*)?([a-zA-Z%])/.exec(format.slice(index));
    if (spec === null) {
      out += char;
      continue;
    }
    index += spec[0].length - 1;
    const conversion = spec[1] as string;
    if (conversion === '%') out += '%';
    else if (conversion === 'b') out += unescapeEcho(args.shift() ?? '').text;
    else out += args.shift() ?? (conversion === 's' ? '' : '0');
  }
  return out;
}

export const printf: ProgramHandler = (args) => {
  let rest = args;
  // `printf -v NAME …` assigns a variable and prints nothing.
  if (rest[0]?.text === '-v') return EMPTY_OUTPUT;
  if (rest[0]?.text === '--') rest = rest.slice(1);
  const format = rest[0];
  if (format === undefined) return EMPTY_OUTPUT;
  const values = rest.slice(1).map((field) => field.text);
  const consumes = /%[^%]/.test(format.text);
  let text = formatOnce(format.text, values);
  while (consumes && values.length > 0) {
    const before = values.length;
    text += formatOnce(format.text, values);
    if (values.length === before) break;
  }
  return { text, known: rest.every((field) => field.literal) };
};

export const cat: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, []);
  if (parsed.operands.length === 0) return site.stdin;
  return joinOutputs(
    parsed.operands.map((field) => {
      if (field.text === '-') return site.stdin;
      const path = field.literal ? site.resolve(field) : undefined;
      return path === undefined ? { text: '', known: false } : site.readFile(path);
    }),
  );
};

export const tee: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['output-error']);
  const append = has(parsed, 'a', 'append');
  for (const field of parsed.operands) {
    const path = fieldPath(site, field);
    if (path === undefined) continue;
    const before = append ? site.readFile(path) : EMPTY_OUTPUT;
    site.write(path, joinOutputs([before, site.stdin]));
  }
  return site.stdin;
};

function hookRemoval(site: CommandSite, field: Field, path: string | undefined, what: string): void {
  const hooks = path === undefined ? mentionsHooks(field) : isHookPath(site.repoPath(path));
  if (hooks) site.bypass(`${what} (${field.text}), so the pre-commit gate would not run`);
}

export const rm: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['interactive']);
  const recursive = has(parsed, 'r', 'R', 'recursive');
  for (const field of parsed.operands) {
    const path = fieldPath(site, field);
    hookRemoval(site, field, path, 'removes git hooks');
    if (path === undefined) continue;
    if (site.isDirectory(path)) {
      if (!recursive) continue;
      site.unknown(`removes the folder ${field.text} and everything in it`);
    }
    site.remove(path);
  }
  return EMPTY_OUTPUT;
};

function targetDirectory(parsed: ParsedArguments, site: CommandSite): { directory: string | undefined; sources: Field[]; destination: Field | undefined } {
  const explicit = parsed.values.get('t') ?? parsed.values.get('target-directory');
  if (explicit !== undefined) return { directory: site.resolve(explicit), sources: parsed.operands, destination: explicit };
  const sources = parsed.operands.slice(0, -1);
  const destination = parsed.operands[parsed.operands.length - 1];
  if (destination === undefined) return { directory: undefined, sources, destination };
  const path = site.resolve(destination);
  const intoFolder =
    path !== undefined && !has(parsed, 'T', 'no-target-directory') && (destination.text.endsWith('/') || sources.length > 1 || site.isDirectory(path));
  return { directory: intoFolder ? path : undefined, sources, destination };
}

const COPY_VALUES = ['t', 'target-directory', 'S', 'suffix', 'm', 'mode', 'o', 'owner', 'g', 'group'];

/** cp, mv and install: each destination file gets its source's content; mv also removes the source. */
function copying(verb: 'copies' | 'moves' | 'installs'): ProgramHandler {
  return (args, site) => {
    const parsed = parseArguments(args, COPY_VALUES);
    if (verb === 'installs' && has(parsed, 'd', 'directory')) return EMPTY_OUTPUT;
    const { directory, sources, destination } = targetDirectory(parsed, site);
    if (destination === undefined || sources.length === 0) return EMPTY_OUTPUT;
    const destinationPath = directory ?? site.resolve(destination);
    for (const field of sources) {
      const source = fieldPath(site, field);
      if (verb === 'moves') hookRemoval(site, field, source, 'moves git hooks away');
      if (source === undefined || destinationPath === undefined) {
        site.unknown(`${verb} ${field.text} to a place that cannot be known in advance`);
        continue;
      }
      if (site.isDirectory(source)) {
        site.unknown(`${verb} the folder ${field.text}, whose files cannot be listed in advance`);
        if (verb === 'moves') site.remove(source);
        continue;
      }
      const target = directory === undefined ? destinationPath : resolve(directory, basename(source));
      site.write(target, site.readFile(source));
      if (verb === 'moves') site.remove(source);
    }
    return EMPTY_OUTPUT;
  };
}

export const cp = copying('copies');
export const mv = copying('moves');
export const install = copying('installs');

export const touch: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['d', 'r', 't', 'date', 'reference', 'time']);
  if (has(parsed, 'c', 'no-create')) return EMPTY_OUTPUT;
  for (const field of parsed.operands) {
    const path = fieldPath(site, field);
    if (path === undefined || site.isDirectory(path)) continue;
    // Touching a file that exists changes no content; creating one is a new (empty) file.
    if (!site.exists(path)) site.write(path, EMPTY_OUTPUT);
  }
  return EMPTY_OUTPUT;
};

export const ln: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['t', 'target-directory', 'S', 'suffix']);
  const symbolic = has(parsed, 's', 'symbolic');
  let { directory, sources, destination } = targetDirectory(parsed, site);
  if (parsed.operands.length === 1 && directory === undefined && site.cwd !== undefined) {
    directory = site.cwd;
    sources = parsed.operands;
    destination = parsed.operands[0];
  }
  if (destination === undefined) return EMPTY_OUTPUT;
  for (const field of sources) {
    const linkPath = directory === undefined ? site.resolve(destination) : resolve(directory, basename(field.text));
    if (linkPath === undefined || !field.literal) {
      site.unknown(`links ${field.text} in a way that cannot be known in advance`);
      continue;
    }
    const target = symbolic && !field.text.startsWith('/') ? resolve(dirname(linkPath), field.text) : site.resolve(field);
    if (target === undefined) continue;
    const targetPath = site.repoPath(target);
    if (site.isDirectory(target) || targetPath === '..' || targetPath.startsWith('../')) {
      site.unknown(`makes ${site.repoPath(linkPath)} point at ${field.text}, so later writes through it land elsewhere`);
    }
    site.write(linkPath, site.isDirectory(target) ? EMPTY_OUTPUT : site.readFile(target));
  }
  return EMPTY_OUTPUT;
};

export const truncate: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['s', 'size', 'r', 'reference', 'o']);
  const size = (parsed.values.get('s') ?? parsed.values.get('size'))?.text;
  for (const field of parsed.operands) {
    const path = fieldPath(site, field);
    if (path === undefined) continue;
    if (size === '0') site.write(path, EMPTY_OUTPUT);
    else site.write(path, { text: site.readFile(path).text, known: false });
  }
  return EMPTY_OUTPUT;
};

export const dd: ProgramHandler = (args, site) => {
  const operand = (key: string): Field | undefined => {
    const field = args.find((candidate) => candidate.text.startsWith(`${key}=`));
    return field === undefined ? undefined : { ...field, text: field.text.slice(key.length + 1), knownPrefix: field.knownPrefix.slice(key.length + 1) };
  };
  const output = operand('of');
  const input = operand('if');
  const inputPath = input === undefined ? undefined : fieldPath(site, input);
  const content = input === undefined ? site.stdin : inputPath === undefined ? UNKNOWN_OUTPUT : site.readFile(inputPath);
  const known = args.every((field) => field.literal && /^(if|of|bs|count|status)=/.test(field.text));
  if (output === undefined) return content;
  const path = fieldPath(site, output);
  if (path !== undefined) site.write(path, known ? content : { text: content.text, known: false });
  return EMPTY_OUTPUT;
};

/** A write whose new content cannot be known: the file as it is plus the visible new text, judged again after. */
function rewriteInPlace(site: CommandSite, files: readonly Field[], visible: string, how: string): void {
  for (const field of files) {
    const path = fieldPath(site, field);
    if (path === undefined) continue;
    const before = site.readFile(path).text;
    site.write(path, { text: visible === '' ? before : `${before}\n${visible}`, known: false });
  }
  if (files.length === 0) site.unknown(`${how} files that cannot be known in advance`);
}

export const sed: ProgramHandler = (args, site) => {
  const scripts: string[] = [];
  const files: Field[] = [];
  let inPlace = false;
  let options = true;
  let scriptGiven = false;
  let scriptFile = false;
  for (let index = 0; index < args.length; index += 1) {
    const field = args[index] as Field;
    const word = field.text;
    if (options && word === '--') {
      options = false;
      continue;
    }
    if (options && field.literal && word.startsWith('--')) {
      if (word.startsWith('--in-place')) inPlace = true;
      if (word === '--file' || word.startsWith('--file=')) scriptFile = true;
      if (word === '--expression' || word === '--file') {
        scripts.push(args[index + 1]?.text ?? '');
        scriptGiven = true;
        index += 1;
      } else if (word.startsWith('--expression=')) {
        scripts.push(word.slice(13));
        scriptGiven = true;
      }
      continue;
    }
    if (options && field.literal && word.startsWith('-') && word !== '-') {
      for (let at = 1; at < word.length; at += 1) {
        const letter = word[at] as string;
        if (letter === 'i') {
          inPlace = true;
          // BSD sed takes the backup suffix as the next word: `sed -i '' 's/a/b/' file`.
          if (at === word.length - 1 && args[index + 1]?.text === '' && args[index + 1]?.literal === true) index += 1;
          break;
        }
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          const stuck = word.slice(at + 1);
          const value = stuck !== '' ? stuck : (args[index + 1]?.text ?? '');
          if (stuck === '') index += 1;
          if (letter === 'f') scriptFile = true;
          if (letter !== 'l') {
            scripts.push(value);
            scriptGiven = true;
          }
          break;
        }
      }
      continue;
    }
    if (!scriptGiven) {
      scripts.push(word);
      scriptGiven = true;
    } else files.push(field);
  }
  if (inPlace) {
    rewriteInPlace(site, files, scripts.join('\n'), 'rewrites');
    return EMPTY_OUTPUT;
  }
  if (scriptFile || scripts.some(sedScriptMayWrite)) site.unknown('runs a sed script that writes files or runs commands');
  return UNKNOWN_OUTPUT;
};

export const perl: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['e', 'E', 'I', 'M', 'm', 'x']);
  const inPlace = args.some((field) => field.literal && /^-[a-zA-Z]*i/.test(field.text) && !field.text.startsWith('--'));
  const code = [parsed.values.get('e'), parsed.values.get('E')].filter((value): value is Field => value !== undefined).map((value) => value.text);
  if (inPlace) {
    const files = code.length > 0 ? parsed.operands : parsed.operands.slice(1);
    rewriteInPlace(site, files, code.join('\n'), 'rewrites');
  }
  site.unknown('runs perl code, whose changes to files cannot be known in advance');
  return UNKNOWN_OUTPUT;
};

/** Files a downloader writes: content unknown until it runs. */
function download(site: CommandSite, file: Field | undefined): void {
  if (file === undefined || file.text === '-') return;
  const path = fieldPath(site, file);
  if (path !== undefined) site.write(path, UNKNOWN_OUTPUT);
}

const CURL_SHORT_VALUES = 'oDcdHXuAebFTKwxmrYyzECUQt';
const CURL_LONG_OUTPUTS = new Set(['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save']);

export const curl: ProgramHandler = (args, site) => {
  for (let index = 0; index < args.length; index += 1) {
    const word = (args[index] as Field).text;
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const name = equals < 0 ? word.slice(2) : word.slice(2, equals);
      if (name === 'remote-name' || name === 'remote-name-all' || name === 'config' || name === 'output-dir')
        site.unknown('downloads to a file whose name or content cannot be known in advance');
      if (CURL_LONG_OUTPUTS.has(name)) {
        download(site, equals < 0 ? args[index + 1] : { ...(args[index] as Field), text: word.slice(equals + 1) });
        if (equals < 0) index += 1;
      }
      continue;
    }
    if (!word.startsWith('-') || word === '-') continue;
    for (let at = 1; at < word.length; at += 1) {
      const letter = word[at] as string;
      if (letter === 'O' || letter === 'J' || letter === 'K') site.unknown('downloads to a file whose name or content cannot be known in advance');
      if (!CURL_SHORT_VALUES.includes(letter)) continue;
      const stuck = word.slice(at + 1);
      const value = stuck !== '' ? { ...(args[index] as Field), text: stuck } : args[index + 1];
      if (stuck === '') index += 1;
      if ('oDc'.includes(letter)) download(site, value);
      break;
    }
  }
  return UNKNOWN_OUTPUT;
};

export const wget: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, [
    'O',
    'o',
    'a',
    'P',
    'output-document',
    'output-file',
    'append-output',
    'directory-prefix',
    'e',
    't',
    'T',
    'w',
    'Q',
    'U',
    'i',
  ]);
  const document = parsed.values.get('O') ?? parsed.values.get('output-document');
  for (const log of [parsed.values.get('o'), parsed.values.get('output-file'), parsed.values.get('a'), parsed.values.get('append-output')]) download(site, log);
  if (has(parsed, 'spider')) return UNKNOWN_OUTPUT;
  if (document === undefined) site.unknown('downloads files whose names and content cannot be known in advance');
  else download(site, document);
  return UNKNOWN_OUTPUT;
};

export const tar: ProgramHandler = (args, site) => {
  const first = args[0]?.text ?? '';
  const oldStyle = first !== '' && !first.startsWith('-') ? first : '';
  const parsed = parseArguments(oldStyle === '' ? args : [{ ...(args[0] as Field), text: `-${first}` }, ...args.slice(1)], [
    'f',
    'file',
    'C',
    'directory',
    'T',
    'X',
    'files-from',
    'exclude-from',
    'b',
    'H',
    'format',
  ]);
  if (has(parsed, 't', 'list')) return UNKNOWN_OUTPUT;
  if (has(parsed, 'x', 'extract', 'get')) {
    site.unknown('extracts files from an archive, whose names and content cannot be known in advance');
    return UNKNOWN_OUTPUT;
  }
  if (has(parsed, 'c', 'create', 'r', 'append', 'u', 'update', 'A', 'catenate', 'concatenate')) {
    download(site, parsed.values.get('f') ?? parsed.values.get('file'));
    return UNKNOWN_OUTPUT;
  }
  site.unknown('runs tar in a way whose effects cannot be known in advance');
  return UNKNOWN_OUTPUT;
};

export const unzip: ProgramHandler = (args, site) => {
  const readOnly = args.some((field) => /^-[a-zA-Z]*[lvtZpc]/.test(field.text) && !field.text.startsWith('--'));
  if (!readOnly) site.unknown('extracts files from an archive, whose names and content cannot be known in advance');
  return UNKNOWN_OUTPUT;
};

/** A mode that keeps or adds the execute bit (`+x`, `755`) re-enables a hook; anything else may disable it. */
function keepsExecutable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return parseInt(mode.slice(-3, -2), 8) % 2 === 1;
  return /^[ugoa]*\+[rwxX]*x[rwxX]*$/.test(mode);
}

export const chmod: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, []);
  const modeIndex = args.findIndex((field) => !(field.literal && /^-[RvcfH]+$|^--/.test(field.text)) || /^-[rwxXst]+$/.test(field.text));
  const mode = args[modeIndex];
  if (mode === undefined) return EMPTY_OUTPUT;
  const files = args.slice(modeIndex + 1).filter((field) => !parsed.flags.has(field.text.replace(/^-+/, '')) || field.text === '-');
  for (const field of files) {
    const path = fieldPath(site, field);
    const hooks = path === undefined ? mentionsHooks(field) : isHookPath(site.repoPath(path));
    // Making a hook executable again is harmless; any other mode change may switch it off.
    if (!hooks || (mode.literal && keepsExecutable(mode.text))) continue;
    site.bypass(`changes the mode of git hooks (${field.text}), so the pre-commit gate would not run`);
    if (path !== undefined) site.write(path, site.readFile(path));
  }
  return EMPTY_OUTPUT;
};

/** `find`: read-only unless it deletes, writes lists to files, or runs commands on what it finds. */
export const find: ProgramHandler = (args, site) => {
  const starts: Field[] = [];
  let index = 0;
  while (index < args.length && !/^[-(!]/.test((args[index] as Field).text)) starts.push(args[index++] as Field);
  for (; index < args.length; index += 1) {
    const word = (args[index] as Field).text;
    if (word === '-delete') {
      for (const start of starts) hookRemoval(site, start, fieldPath(site, start), 'removes git hooks');
      site.unknown('deletes the files find matches, which cannot be listed in advance');
    } else if (['-exec', '-execdir', '-ok', '-okdir'].includes(word)) {
      const end = args.findIndex((field, at) => at > index && (field.text === ';' || field.text === '+'));
      const command = args
        .slice(index + 1, end < 0 ? args.length : end)
        .map((field) => (field.text === '{}' ? { ...field, text: '{}', literal: false, knownPrefix: '' } : field));
      site.runFields(command, UNKNOWN_OUTPUT);
      index = end < 0 ? args.length : end;
    } else if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(word)) {
      download(site, args[index + 1]);
      index += 1;
    }
  }
  return UNKNOWN_OUTPUT;
};

export const sort: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, [
    'o',
    'output',
    'k',
    'key',
    't',
    'field-separator',
    'S',
    'buffer-size',
    'T',
    'temporary-directory',
    'parallel',
    'batch-size',
    'files0-from',
  ]);
  download(site, parsed.values.get('o') ?? parsed.values.get('output'));
  return UNKNOWN_OUTPUT;
};

export const uniq: ProgramHandler = (args, site) => {
  const parsed = parseArguments(args, ['f', 's', 'w', 'skip-fields', 'skip-chars', 'check-chars']);
  download(site, parsed.operands[1]);
  return UNKNOWN_OUTPUT;
};

const AWK_WRITES = /print[f]?[^;}]*>|system\s*\(|\|\s*getline|\|&|"\s*\|/;

export const awk: ProgramHandler = (args, site) => {
  const inPlace = args.some((field, index) => field.text === '-i' && args[index + 1]?.text === 'inplace');
  const program = args.find((field) => !field.text.startsWith('-'));
  if (inPlace || program === undefined || !program.literal || AWK_WRITES.test(program.text) || args.some((field) => field.text === '-f')) {
    site.unknown('runs an awk program that may write files or run commands');
  }
  return UNKNOWN_OUTPUT;
};

/** Programs that change nothing in the project's files (what they print is not modelled). */
export const READ_ONLY_PROGRAMS = new Set([
  'ls',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'wc',
  'pwd',
  'true',
  'false',
  'test',
  '[',
  ':',
  'which',
  'type',
  'whoami',
  'id',
  'date',
  'uname',
  'hostname',
  'printenv',
  'sleep',
  'seq',
  'expr',
  'cut',
  'tr',
  'nl',
  'od',
  'hexdump',
  'column',
  'fold',
  'fmt',
  'paste',
  'join',
  'rev',
  'tac',
  'strings',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'shasum',
  'cksum',
  'base64',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'stat',
  'file',
  'du',
  'df',
  'tree',
  'diff',
  'cmp',
  'comm',
  'jq',
  'less',
  'more',
  'nproc',
  'uptime',
  'free',
  'ps',
  'lsof',
  'man',
  'mkdir',
  'rmdir',
  'chown',
  'chgrp',
  'kill',
  'clear',
  'read',
  'shift',
  'exit',
  'return',
  'wait',
  'set',
  'shopt',
  'unset',
  'unalias',
  'history',
  'jobs',
  'getopts',
  'let',
  'umask',
  'hash',
  'times',
  'dirs',
  'bg',
  'fg',
  'disown',
  'ulimit',
  'caller',
  'help',
  'locale',
  'tput',
  'stty',
]);
