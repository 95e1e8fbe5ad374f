import { statSync } from 'node:fs';
import { basename, isAbsolute, normalize, relative, resolve } from 'node:path';
import type {
  Assignment,
  Command,
  CompoundList,
  Function as FunctionNode,
  ParsedScript,
  PipelineNode,
  AndOr,
  Redirection,
  Statement,
  SyntaxNode,
} from 'unbash';
import { forEachChild, parse } from 'unbash';
import type { Action } from '@holdfast/core/contract';
import { toRepoPath } from '../io/index.js';
import type { CommandSite } from './command-site.js';
import * as files from './file-commands.js';
import { isHookPath, READ_ONLY_PROGRAMS } from './file-commands.js';
import { checkEnvironment } from './git-environment.js';
import { programSettingsIn } from './program-settings.js';
import { readGit } from './git-command.js';
import { EMPTY_OUTPUT, UNKNOWN_OUTPUT, expandHereDocBody, expandWhole, expandWord, joinOutputs, syntheticField } from '@holdfast/core/shell';
import type { Expander, Field, Output } from '@holdfast/core/shell';
import { isWrapper, unwrap } from '@holdfast/core/shell';
import { Scope } from './shell-scope.js';
import type { GateBypass, ShellContext, ShellReading } from './shell-reading.js';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { nodeOs } from '../io/index.js';

const MAX_DEPTH = 24;
const MAX_STEPS = 50_000;
const MAX_SCRIPT_LENGTH = 64 * 1024;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash']);
const POSSIBLE_COMMIT = /commit|no-verify|hookspath|\.git\/hooks|update-ref|git\s+replace/i;
const MENTIONS_HOOKS = /\.git\/hooks|hookspath/i;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Files git reads configuration from: the repository's, a user's, or any `*.gitconfig` / `config` file. */
const GIT_CONFIG_FILE = /(^|\/)(\.git\/config|\.gitconfig|[^/]*\.gitconfig|config)$/;
const HOOKS_PATH_SETTING = /hooks\s*path/i;
/** Standard input that later tool calls send to a running session (Codex `write_stdin`): never judged by a hook. */
const LATER_INPUT: Output = { text: '\u0000later input\u0000', known: false };
/** Programs that read commands from their input when started with no script: shells and interpreters. */
const READS_COMMANDS = new Set([
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'irb',
  'php',
  'lua',
  'bun',
  'deno',
  'R',
  'ghci',
  'sqlite3',
  'psql',
  'mysql',
  'tclsh',
  'jshell',
]);
const LATER_COMMANDS = 'reads commands from its input, which later calls (write_stdin) would type into it unseen by any hook; run each command as its own call';
/** Why a command that outlives the call is refused when its effects can only be judged after it ran. */
const DETACHED =
  'runs in the background with effects that can only be judged after it ends, and it may still be running (and writing) when the check after this call looks; run it in the foreground';

const FILE_PROGRAMS: Record<string, (args: readonly Field[], site: CommandSite) => Output> = {
  echo: files.echo,
  printf: files.printf,
  cat: files.cat,
  tee: files.tee,
  rm: files.rm,
  cp: files.cp,
  mv: files.mv,
  install: files.install,
  touch: files.touch,
  ln: files.ln,
  truncate: files.truncate,
  dd: files.dd,
  sed: files.sed,
  gsed: files.sed,
  perl: files.perl,
  curl: files.curl,
  wget: files.wget,
  tar: files.tar,
  unzip: files.unzip,
  chmod: files.chmod,
  find: files.find,
  sort: files.sort,
  uniq: files.uniq,
  awk: files.awk,
  gawk: files.awk,
  mawk: files.awk,
};

function quoted(text: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function shortened(text: string, limit = 200): string {
  const single = text.trim();
  return single.length <= limit ? single : `${single.slice(0, limit - 1)}…`;
}

/** Reads one shell command line, recursively, into actions, bypasses and unknown effects. */
export class ShellReader {
  private readonly actions: Action[] = [];
  private readonly bypasses: GateBypass[] = [];
  private readonly unknownEffects: string[] = [];
  private readonly overlay = new Map<string, Output | null>();
  private readonly calledFunctions = new Set<FunctionNode>();
  private readonly definedFunctions: { node: FunctionNode; source: string; scope: Scope }[] = [];
  /** Where the command being read comes from when it is not the agent's own text (a script file, a package script). */
  private readonly origins: string[] = [];
  private depth = 0;
  /** Inside a script file the command runs: its uncalled functions are library code, not read. */
  private scriptDepth = 0;
  private steps = 0;
  private homeFolder: string | undefined;

  constructor(
    private readonly command: string,
    private readonly context: ShellContext,
  ) {}

  /** The home folder, asked of node:os only when a command names it (loading os costs every hook process). */
  private get home(): string {
    return (this.homeFolder ??= this.context.home ?? nodeOs().homedir());
  }

  read(): ShellReading {
    const scope = new Scope(this.context.cwd, undefined, new Map(), new Map(), []);
    this.readSource(this.command, scope, this.context.input === 'later-calls' ? LATER_INPUT : EMPTY_OUTPUT);
    // A function defined and never called by name may still run (`$f`, `eval`): read it too.
    for (const defined of this.definedFunctions) {
      if (!this.calledFunctions.has(defined.node)) this.walkFunction(defined.node, defined.source, defined.scope.child(), EMPTY_OUTPUT);
    }
    return { actions: this.actions, bypasses: this.bypasses, unknownEffects: this.unknownEffects };
  }

  // Recording -------------------------------------------------------------------------------------

  private bypass(segment: string, reason: string): void {
    const origin = this.origins.length === 0 ? '' : ` (in ${this.origins[this.origins.length - 1]})`;
    const text = `\`${shortened(segment)}\`${origin} ${reason}`;
    if (!this.bypasses.some((bypass) => bypass.reason === text)) this.bypasses.push({ segment: shortened(segment), reason: text });
  }

  private unknown(segment: string, reason: string): void {
    const origin = this.origins.length === 0 ? '' : ` (in ${this.origins[this.origins.length - 1]})`;
    const text = `\`${shortened(segment)}\`${origin} ${reason}`;
    if (!this.unknownEffects.includes(text)) this.unknownEffects.push(text);
  }

  /** Cannot be read at all: an unknown effect, and, if the command could commit, a bypass. */
  private unreadable(segment: string, reason: string): void {
    this.unknown(segment, reason);
    if (POSSIBLE_COMMIT.test(this.command)) this.bypass(segment, `${reason}; it could not be read, so it may commit or change the git hooks unseen`);
  }

  private isDirectory(absolutePath: string): boolean {
    if (this.overlay.has(absolutePath)) return false;
    if (this.context.isDirectory !== undefined) return this.context.isDirectory(absolutePath);
    try {
      return statSync(absolutePath).isDirectory();
    } catch {
      return false;
    }
  }

  private readFile(absolutePath: string): Output {
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid ?? EMPTY_OUTPUT;
    const text = this.context.readText(absolutePath);
    return text === undefined ? EMPTY_OUTPUT : { text, known: true };
  }

  private exists(absolutePath: string): boolean {
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid !== null;
    return this.context.readText(absolutePath) !== undefined || this.isDirectory(absolutePath);
  }

  private repoPath(absolutePath: string): string {
    return toRepoPath(this.context.root, absolutePath);
  }

  private write(segment: string, absolutePath: string, content: Output): void {
    if (absolutePath === '/dev' || absolutePath.startsWith('/dev/')) return;
    this.overlay.set(absolutePath, content);
    const path = this.repoPath(absolutePath);
    // `cat > src/x.ts` in a session: what it writes is typed later (write_stdin), after any check.
    if (content.text.includes(LATER_INPUT.text))
      this.bypass(
        segment,
        `writes ${path} with what it reads from its input, which later calls (write_stdin) would type unseen by any hook; write the file with apply_patch or a heredoc instead`,
      );
    this.actions.push({ type: 'write', path, content: content.text });
    if (!content.known) this.unknown(segment, `writes ${path} with content that cannot be known in advance`);
    this.checkHookFiles(segment, path, 'replaces');
    if (GIT_CONFIG_FILE.test(path) && HOOKS_PATH_SETTING.test(content.text)) {
      this.bypass(segment, `writes a hooks folder setting into git configuration (${path}), so the pre-commit hook would not run`);
    }
    const programs = GIT_CONFIG_FILE.test(path) ? programSettingsIn(content.text) : [];
    if (programs.length > 0) {
      this.bypass(
        segment,
        `writes ${programs.join(', ')} into git configuration (${path}): a program git would then run inside later commands that look read-only, where no check sees it`,
      );
    }
  }

  private remove(segment: string, absolutePath: string): void {
    this.overlay.set(absolutePath, null);
    const path = this.repoPath(absolutePath);
    this.actions.push({ type: 'delete', path });
    this.checkHookFiles(segment, path, 'removes');
  }

  /** A hook file written or removed by any program is a bypass (the tamper rule judges the path too). */
  private checkHookFiles(segment: string, path: string, verb: string): void {
    if (!isHookPath(path) || this.bypasses.some((bypass) => bypass.segment === shortened(segment))) return;
    this.bypass(segment, `${verb} git hooks (${path}), so the pre-commit gate may not run`);
  }

  // Walking ---------------------------------------------------------------------------------------

  /** Parses and reads a command line in the given shell; what it prints comes back. */
  readSource(source: string, scope: Scope, stdin: Output): Output {
    if (this.depth >= MAX_DEPTH) {
      this.unreadable(source, 'nests shells too deeply to be read');
      return UNKNOWN_OUTPUT;
    }
    this.depth += 1;
    try {
      return this.walkScript(parse(source), source, scope, stdin);
    } finally {
      this.depth -= 1;
    }
  }

  private walkScript(script: ParsedScript, source: string, scope: Scope, stdin: Output): Output {
    const text = script.source ?? source;
    const firstError = script.errors?.[0];
    if (firstError !== undefined) this.unreadable(text.slice(script.pos, script.end) || text, `could not be parsed (${firstError.message})`);
    return this.walkStatements(script.commands, text, scope, stdin);
  }

  /**
   * `cmd &`: what it does statically is judged before the call like anything else; what can only be
   * judged after it ran cannot be, since it may still be running when the check looks (and write
   * after it). Such a command in the background is refused, unless a later `wait` in the same list
   * waits for it.
   */
  private walkStatements(statements: readonly Statement[], source: string, scope: Scope, stdin: Output): Output {
    const detached: string[] = [];
    const outputs = statements.map((statement) => {
      if (statement.background !== true) {
        if (/^\s*wait\b/.test(source.slice(statement.pos, statement.end))) detached.length = 0;
        return this.walkNode(statement.command, source, scope, stdin);
      }
      const before = this.unknownEffects.length;
      this.walkNode(statement.command, source, scope.child(), EMPTY_OUTPUT);
      if (this.unknownEffects.length > before) detached.push(source.slice(statement.pos, statement.end));
      return EMPTY_OUTPUT;
    });
    for (const segment of detached) this.bypass(segment, DETACHED);
    return joinOutputs(outputs);
  }

  private walkList(list: CompoundList, source: string, scope: Scope, stdin: Output): Output {
    return this.walkStatements(list.commands, source, scope, stdin);
  }

  private budget(source: string): boolean {
    this.steps += 1;
    if (this.steps === MAX_STEPS) this.unreadable(source, 'is too large to be read');
    return this.steps < MAX_STEPS;
  }

  private walkNode(node: PipelineNode | AndOr | CompoundList, source: string, scope: Scope, stdin: Output): Output {
    if (!this.budget(source)) return UNKNOWN_OUTPUT;
    switch (node.type) {
      case 'AndOr':
        return joinOutputs(node.commands.map((command) => this.walkNode(command, source, scope, stdin)));
      case 'Pipeline': {
        let input = stdin;
        for (const command of node.commands) input = this.walkNode(command, source, node.commands.length > 1 ? scope.child() : scope, input);
        return input;
      }
      case 'Command':
        return this.walkCommand(node, source, scope, stdin);
      case 'CompoundList':
        return this.walkList(node, source, scope, stdin);
      case 'Subshell':
        return this.walkList(node.body, source, scope.child(), stdin);
      case 'BraceGroup':
        return this.walkList(node.body, source, scope, stdin);
      case 'If': {
        const outputs = [this.walkList(node.clause, source, scope, stdin)];
        const branches: Scope[] = [];
        const branch = (list: CompoundList): void => {
          const inner = scope.child();
          outputs.push(this.walkList(list, source, inner, stdin));
          branches.push(inner);
        };
        branch(node.then);
        for (const elif of node.elif) {
          outputs.push(this.walkList(elif.clause, source, scope, stdin));
          branch(elif.then);
        }
        if (node.else !== undefined) branch(node.else);
        scope.join(branches, node.else !== undefined);
        return { text: joinOutputs(outputs).text, known: false };
      }
      case 'While': {
        const clause = this.walkList(node.clause, source, scope, stdin);
        const body = scope.child();
        const output = this.walkList(node.body, source, body, stdin);
        scope.join([body], false);
        return { text: clause.text + output.text, known: false };
      }
      case 'For':
      case 'Select': {
        const expander = this.expander(scope, source);
        const values = (node.wordlist ?? []).flatMap((word) => expandWord(word, expander));
        const only = values.length === 1 && values[0]?.literal === true ? values[0].text : undefined;
        const body = scope.child();
        body.variables.set(node.name.value, { value: only, exported: scope.variables.get(node.name.value)?.exported ?? false });
        const output = this.walkList(node.body, source, body, stdin);
        scope.join([body], false);
        return { text: output.text, known: false };
      }
      case 'ArithmeticFor': {
        this.runScriptsInside(node, source, scope);
        const body = scope.child();
        const output = this.walkList(node.body, source, body, stdin);
        scope.join([body], false);
        return { text: output.text, known: false };
      }
      case 'Case': {
        const expander = this.expander(scope, source);
        expandWord(node.word, expander);
        const branches: Scope[] = [];
        const outputs = node.items.map((item) => {
          item.pattern.forEach((word) => expandWord(word, expander));
          const inner = scope.child();
          branches.push(inner);
          return this.walkList(item.body, source, inner, stdin);
        });
        scope.join(branches, false);
        return { text: joinOutputs(outputs).text, known: false };
      }
      case 'TestCommand':
      case 'ArithmeticCommand':
        this.runScriptsInside(node, source, scope);
        return UNKNOWN_OUTPUT;
      case 'Function': {
        scope.functions.set(node.name.value, node);
        if (this.scriptDepth === 0) this.definedFunctions.push({ node, source, scope });
        return EMPTY_OUTPUT;
      }
      case 'Coproc':
        this.walkNode(node.body, source, scope.child(), UNKNOWN_OUTPUT);
        return UNKNOWN_OUTPUT;
      case 'Redirected': {
        const expander = this.expander(scope, source);
        const input = this.inputOf(node.redirects, expander, scope, source) ?? stdin;
        const output = this.walkNode(node.command, source, scope, input);
        return this.redirectOutput(node.redirects, source.slice(node.pos, node.end), output, expander, scope);
      }
    }
  }

  private walkFunction(node: FunctionNode, source: string, scope: Scope, stdin: Output): Output {
    if (this.depth >= MAX_DEPTH) {
      this.unreadable(node.name.value, 'calls functions too deeply to be read');
      return UNKNOWN_OUTPUT;
    }
    this.calledFunctions.add(node);
    this.depth += 1;
    try {
      return this.walkNode(node.body, source, scope, stdin);
    } finally {
      this.depth -= 1;
    }
  }

  /** Runs every substitution inside a node whose own meaning is not modelled (`[[ ]]`, `(( ))`). */
  private runScriptsInside(node: SyntaxNode, source: string, scope: Scope): void {
    forEachChild(node, (child) => {
      if (child.type === 'Script') this.walkScript(child as ParsedScript, source, scope.child(), UNKNOWN_OUTPUT);
      else this.runScriptsInside(child, source, scope);
    });
  }

  private expander(scope: Scope, source: string): Expander {
    return {
      variable: (name) => {
        if (name === 'PWD') return scope.cwd;
        if (name === 'HOME') return scope.variables.get('HOME')?.value ?? this.home;
        if (name === 'OLDPWD') return scope.previousCwd;
        return scope.variables.get(name)?.value;
      },
      home: () => this.home,
      substitute: (script) => (script === undefined ? UNKNOWN_OUTPUT : this.walkScript(script, source, scope.child(), UNKNOWN_OUTPUT)),
      runNested: (script) => {
        if (script !== undefined) this.walkScript(script, source, scope.child(), UNKNOWN_OUTPUT);
      },
    };
  }

  private assignmentField(assignment: Assignment, expander: Expander): Field {
    if (assignment.value.type === 'ArrayValue') {
      assignment.value.elements.forEach((element) => expandWord(element, expander));
      return {
        text: assignment.text.slice(assignment.name.length + 1),
        literal: false,
        knownPrefix: '',
        descriptor: false,
        pos: assignment.pos,
        end: assignment.end,
      };
    }
    return expandWhole(assignment.value, expander);
  }

  /** Standard input from `<<EOF`, `<<<` or `< file`, when the command has one. */
  private inputOf(redirects: readonly Redirection[], expander: Expander, scope: Scope, source: string): Output | undefined {
    let input: Output | undefined;
    for (const redirect of redirects) {
      if (redirect.type === 'HereDoc') {
        const body = expandHereDocBody(redirect.body.parts, redirect.body.text, redirect.delimiter?.quoted === true, expander);
        // `<<-` strips leading tabs from every line of the body.
        input = redirect.operator === '<<-' ? { ...body, text: body.text.replace(/^\t+/gm, '') } : body;
      } else if (redirect.type === 'HereString') {
        const field = redirect.target === undefined ? undefined : expandWhole(redirect.target, expander);
        input = field === undefined ? UNKNOWN_OUTPUT : { text: `${field.text}\n`, known: field.literal };
      } else if (
        redirect.operator === '<' &&
        (redirect.descriptor === undefined || (redirect.descriptor.type === 'FileDescriptor' && redirect.descriptor.value === 0))
      ) {
        const field = redirect.target === undefined ? undefined : expandWhole(redirect.target, expander);
        const path = field === undefined ? undefined : this.resolveField(field, scope.cwd, source.slice(redirect.pos, redirect.end));
        input = path === undefined ? UNKNOWN_OUTPUT : this.readFile(path);
      }
    }
    return input;
  }

  /** Applies output redirections: each target file is written; stdout goes to the file, not the pipe. */
  private redirectOutput(redirects: readonly Redirection[], segment: string, output: Output, expander: Expander, scope: Scope): Output {
    let stdoutTaken = false;
    for (const redirect of redirects) {
      if (redirect.type !== 'Redirect' || redirect.target === undefined) continue;
      const operator = redirect.operator;
      if (operator === '<' || operator === '<&') continue;
      const target = expandWhole(redirect.target, expander);
      const descriptor = redirect.descriptor?.type === 'FileDescriptor' ? redirect.descriptor.value : undefined;
      if (operator === '>&' && (/^\d+-?$|^-$/.test(target.text) || !target.literal)) continue;
      if (target.descriptor) continue;
      const both = operator === '&>' || operator === '&>>' || (operator === '>&' && descriptor === undefined);
      const stdout = both || descriptor === undefined || descriptor === 1;
      const content: Output = stdout ? output : { text: '', known: output.known };
      const path = this.resolveField(target, scope.cwd, segment);
      if (stdout) stdoutTaken = true;
      if (path === undefined) continue;
      const append = operator === '>>' || operator === '&>>';
      const opened = operator === '<>';
      this.write(segment, path, append || opened ? joinOutputs([this.readFile(path), opened ? EMPTY_OUTPUT : content]) : content);
    }
    return stdoutTaken ? EMPTY_OUTPUT : output;
  }

  private resolveField(field: Field, cwd: string | undefined, segment: string): string | undefined {
    if (field.descriptor) return undefined;
    if (!field.literal) {
      this.unknown(segment, `names a path that cannot be known in advance (${field.text})`);
      if (MENTIONS_HOOKS.test(field.text)) this.bypass(segment, `names a path that cannot be read (${field.text}) in the git hooks folder`);
      return undefined;
    }
    if (isAbsolute(field.text)) return normalize(field.text);
    if (cwd === undefined) {
      this.unknown(segment, `names ${field.text} in a folder that cannot be known after a cd`);
      return undefined;
    }
    return resolve(cwd, field.text);
  }

  private walkCommand(node: Command, source: string, scope: Scope, stdin: Output): Output {
    const segment = source.slice(node.pos, node.end);
    const expander = this.expander(scope, source);
    const assignments = new Map<string, Field>();
    for (const prefix of node.prefix) if (prefix.type === 'Assignment') assignments.set(prefix.name, this.assignmentField(prefix, expander));
    const fields: Field[] = node.name === undefined ? [] : expandWord(node.name, expander);
    for (const argument of node.suffix) {
      if (argument.type === 'Word') fields.push(...expandWord(argument, expander));
      else if (argument.type === 'Assignment') {
        const value = this.assignmentField(argument, expander);
        const text = `${argument.name}${argument.append === true ? '+=' : '='}${value.text}`;
        fields.push({ ...value, text, knownPrefix: value.literal ? text : `${argument.name}=${value.knownPrefix}`, pos: argument.pos, end: argument.end });
      }
    }
    const input = this.inputOf(node.redirects, expander, scope, source) ?? stdin;
    if (fields.length === 0) {
      this.checkAssignments(assignments, segment, scope);
      for (const [name, field] of assignments) {
        scope.variables.set(name, { value: field.literal ? field.text : undefined, exported: scope.variables.get(name)?.exported ?? false });
      }
      return this.redirectOutput(node.redirects, segment, EMPTY_OUTPUT, expander, scope);
    }
    const mark = this.actions.length;
    const output = this.dispatch(fields, { segment, source, scope, stdin: input, cwd: scope.cwd, env: assignments });
    // The shell opens (and truncates) redirection targets before the program runs.
    const after = this.actions.splice(mark);
    const result = this.redirectOutput(node.redirects, segment, output, expander, scope);
    this.actions.push(...after);
    return result;
  }

  // Programs --------------------------------------------------------------------------------------

  private runAction(fields: readonly Field[], source: string, override: string | undefined, cwd: string | undefined): void {
    const first = fields[0];
    const last = fields[fields.length - 1];
    const text =
      override ??
      (first !== undefined && last !== undefined && first.pos >= 0 && last.end >= first.pos
        ? source.slice(first.pos, last.end)
        : fields.map((field) => quoted(field.text)).join(' '));
    this.actions.push({ type: 'run', cmd: `${this.folderOf(cwd)}${text}` });
  }

  /**
   * A run's folder, when it is not the project root, as the `cd` that gets there: the rules read a run
   * on its own, and `npm test` after `cd elsewhere` is not a test run of the project (the requires kind).
   */
  private folderOf(cwd: string | undefined): string {
    if (cwd === undefined) return 'cd "$UNKNOWN_FOLDER" && ';
    const inside = relative(this.context.root, cwd);
    if (inside === '') return '';
    return `cd ${quoted(inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : cwd)} && `;
  }

  /** Judges variables set by an env-prefix, an assignment, `export`, `env X=` or `sudo X=`. */
  private checkAssignments(assignments: ReadonlyMap<string, Field>, segment: string, scope: Scope, cwd: string | undefined = scope.cwd): void {
    if (assignments.size === 0) return;
    const site = this.site({ segment, source: segment, scope, stdin: EMPTY_OUTPUT, cwd, env: assignments });
    checkEnvironment(assignments, site, (name) => {
      const variable = scope.variables.get(name);
      if (variable === undefined) return undefined;
      return variable.value === undefined ? syntheticField(`$${name}`, false) : syntheticField(variable.value);
    });
  }

  private site(call: Call): CommandSite {
    const { segment, scope } = call;
    return {
      segment,
      root: this.context.root,
      cwd: call.cwd,
      stdin: call.stdin,
      mayCommit: POSSIBLE_COMMIT.test(this.command),
      bypass: (reason) => this.bypass(segment, reason),
      unknown: (reason) => this.unknown(segment, reason),
      unreadable: (reason) => this.unreadable(segment, reason),
      commit: (message) => this.actions.push({ type: 'commit', message }),
      resolve: (field, cwd = call.cwd) => this.resolveField(field, cwd, segment),
      repoPath: (path) => this.repoPath(path),
      readFile: (path) => this.readFile(path),
      exists: (path) => this.exists(path),
      isDirectory: (path) => this.isDirectory(path),
      write: (path, content) => this.write(segment, path, content),
      remove: (path) => this.remove(segment, path),
      probe: (commandLine) => this.probe(commandLine, call),
      runText: (commandLine, stdin, cwd = call.cwd) => this.readSource(commandLine, scope.process(cwd), stdin),
      runFields: (fields, stdin, cwd = call.cwd, env = new Map()) =>
        this.dispatch([...fields], { ...call, stdin, cwd, env: new Map([...call.env, ...env]), runOverride: segment }),
    };
  }

  /** The bypasses a command line would make if it ran, without recording its actions. */
  private probe(commandLine: string, call: Call): string[] {
    const probe = new ShellReader(commandLine, { ...this.context, cwd: call.cwd ?? this.context.cwd });
    probe.depth = this.depth + 1;
    if (probe.depth >= MAX_DEPTH) return ['it nests too deeply to be read'];
    const reading = probe.read();
    return reading.bypasses.map((bypass) => bypass.reason);
  }

  private dispatch(fields: Field[], call: Call): Output {
    if (!this.budget(call.segment)) return UNKNOWN_OUTPUT;
    const site = this.site(call);
    if (call.env.size > 0) this.checkAssignments(call.env, call.segment, call.scope, call.cwd);
    const name = fields[0];
    if (name === undefined) return EMPTY_OUTPUT;
    const args = fields.slice(1);
    if (!name.literal) {
      this.runAction(fields, call.source, call.runOverride, call.cwd);
      site.unreadable(`runs a program whose name cannot be read (${name.text})`);
      return UNKNOWN_OUTPUT;
    }
    let program = name.text;
    if (program.includes('/')) {
      const base = basename(program);
      const system =
        program.startsWith('/') &&
        (isWrapper(base) || SHELLS.has(base) || base === 'git' || Object.hasOwn(FILE_PROGRAMS, base) || READ_ONLY_PROGRAMS.has(base));
      if (system) program = base;
    }
    if (isWrapper(program) && call.scope.functions.get(program) === undefined) return this.runWrapper(program, fields, call, site);
    this.runAction(fields, call.source, call.runOverride, call.cwd);
    const definedFunction = call.scope.functions.get(name.text);
    if (definedFunction !== undefined) return this.walkFunction(definedFunction, call.source, call.scope, call.stdin);
    if (program.includes('/')) return this.runScript(name, args, call, site);
    if (SHELLS.has(program)) return this.runShell(program, args, call, site);
    const handler = FILE_PROGRAMS[program];
    if (handler !== undefined) return handler(args, site);
    switch (program) {
      case 'git':
        return readGit(args, site);
      case 'eval': {
        const body = args.map((field) => field.text).join(' ');
        if (args.some((field) => !field.literal)) {
          site.unreadable(`evaluates text that cannot be read (${body})`);
          return UNKNOWN_OUTPUT;
        }
        return this.readSource(body, call.scope, call.stdin);
      }
      case 'source':
      case '.':
        return args[0] === undefined ? EMPTY_OUTPUT : this.runScript(args[0], args.slice(1), call, site, call.scope);
      case 'cd':
      case 'pushd':
      case 'popd':
        this.changeDirectory(program, args, call);
        return EMPTY_OUTPUT;
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly':
        this.declare(program, args, call);
        return EMPTY_OUTPUT;
      case 'alias':
        for (const field of args) {
          const equals = field.text.indexOf('=');
          if (equals < 0) continue;
          const found = field.literal ? this.probe(field.text.slice(equals + 1), call) : ['its body cannot be read'];
          if (found.length > 0) site.bypass(`defines a shell alias that would bypass the git hooks (${found.join('; ')})`);
        }
        return EMPTY_OUTPUT;
      case 'trap':
        if (args[0] !== undefined && args[0].text !== '-' && !args[0].text.startsWith('-')) {
          if (args[0].literal) this.readSource(args[0].text, call.scope.child(), UNKNOWN_OUTPUT);
          else site.unreadable(`sets a trap that cannot be read (${args[0].text})`);
        }
        return EMPTY_OUTPUT;
      case 'watch': {
        const command = args.filter((field, index) => !field.text.startsWith('-') && !/^-[nd]$/.test(args[index - 1]?.text ?? ''));
        return this.runBody(command, call, site);
      }
      case 'su':
      case 'runuser': {
        const at = args.findIndex((field) => field.text === '-c' || field.text === '--command');
        if (at < 0) {
          site.unknown(`runs a login shell as another user`);
          return UNKNOWN_OUTPUT;
        }
        return this.runBody(args.slice(at + 1, at + 2), call, site);
      }
      case 'npm':
      case 'pnpm':
      case 'yarn':
      case 'bun':
        site.unknown(`runs ${program}, whose changes to files cannot be known in advance`);
        this.runPackageScript(program, args, call);
        return UNKNOWN_OUTPUT;
      case 'at':
      case 'batch':
      case 'daemonize':
      case 'start-stop-daemon':
      case 'systemd-run':
      case 'tmux':
      case 'screen':
        site.bypass(`starts ${program}, which ${DETACHED}`);
        return UNKNOWN_OUTPUT;
      case 'pwd':
        return call.cwd === undefined ? UNKNOWN_OUTPUT : { text: `${call.cwd}\n`, known: true };
      case 'rg':
        if (args.some((field) => field.text.startsWith('--pre'))) site.unknown('runs a preprocessor program on each file');
        return UNKNOWN_OUTPUT;
    }
    if (READ_ONLY_PROGRAMS.has(program)) return UNKNOWN_OUTPUT;
    if (call.stdin === LATER_INPUT && READS_COMMANDS.has(program) && args.every((field) => field.text.startsWith('-')))
      site.bypass(`starts ${program}, which ${LATER_COMMANDS}`);
    site.unknown(`runs ${program}, whose changes to files cannot be known in advance`);
    if (args.some((field) => MENTIONS_HOOKS.test(field.text)))
      site.bypass(`runs ${program} on the git hooks (${args.map((field) => field.text).join(' ')}), which may disable the pre-commit gate`);
    return UNKNOWN_OUTPUT;
  }

  /**
   * `npm run x`, `npm test`, `yarn x`: the script's own command line, from package.json, is read like
   * `sh -c` (with its pre and post scripts), so a script that commits without hooks is found.
   */
  private runPackageScript(program: string, args: readonly Field[], call: Call): void {
    const words = args.filter((field) => !field.text.startsWith('-')).map((field) => field.text);
    const shorthand: Record<string, string> = { t: 'test', tst: 'test', test: 'test', start: 'start', stop: 'stop', restart: 'restart' };
    const first = words[0];
    if (first === undefined || call.cwd === undefined) return;
    const name = first === 'run' || first === 'run-script' ? words[1] : (shorthand[first] ?? (program === 'npm' ? undefined : first));
    if (name === undefined) return;
    const manifest = jsonOrUndefined(this.readFile(resolve(call.cwd, 'package.json')).text);
    const scripts = typeof manifest === 'object' && manifest !== null ? (manifest as { scripts?: unknown }).scripts : undefined;
    if (typeof scripts !== 'object' || scripts === null) return;
    for (const script of [`pre${name}`, name, `post${name}`]) {
      const body = (scripts as Record<string, unknown>)[script];
      if (typeof body !== 'string') continue;
      this.origins.push(`the package script "${script}" that \`${shortened(call.segment, 80)}\` runs`);
      try {
        this.readSource(body, call.scope.process(call.cwd), UNKNOWN_OUTPUT);
      } finally {
        this.origins.pop();
      }
    }
  }

  /** Runs a literal command string in a new shell (`bash -c`, `su -c`, `watch`). */
  private runBody(body: readonly Field[], call: Call, site: CommandSite, positional: readonly Field[] = []): Output {
    if (body.length === 0) return EMPTY_OUTPUT;
    if (body.some((field) => !field.literal)) {
      site.unreadable(`runs a command string that cannot be read (${body.map((field) => field.text).join(' ')})`);
      return UNKNOWN_OUTPUT;
    }
    // `bash -c 'script' name a b`: $0 is name, $1… are a, b.
    const scope = call.scope.process(call.cwd);
    positional.forEach((field, index) => scope.variables.set(String(index), { value: field.literal ? field.text : undefined, exported: false }));
    return this.readSource(body.map((field) => field.text).join(' '), scope, call.stdin);
  }

  private runShell(program: string, args: readonly Field[], call: Call, site: CommandSite): Output {
    let command = false;
    let fromStdin = false;
    let index = 0;
    for (; index < args.length; index += 1) {
      const word = (args[index] as Field).text;
      if (word === '--' || word === '-') {
        index += 1;
        break;
      }
      if (word === '--rcfile' || word === '--init-file' || /^[-+][oO]$/.test(word)) {
        index += 1;
        continue;
      }
      if (word.startsWith('--')) continue;
      if (!/^[-+][A-Za-z]+$/.test(word)) break;
      if (word.includes('c')) command = true;
      if (word.includes('s')) fromStdin = true;
      if (/[oO]$/.test(word)) index += 1;
    }
    const operands = args.slice(index);
    if (command) return this.runBody(operands.slice(0, 1), call, site, operands.slice(1));
    if (fromStdin || operands.length === 0) {
      if (call.stdin === LATER_INPUT) {
        site.bypass(`starts ${program}, which ${LATER_COMMANDS}`);
        return UNKNOWN_OUTPUT;
      }
      if (!call.stdin.known) {
        site.unreadable(`runs ${program} on input that cannot be read`);
        return UNKNOWN_OUTPUT;
      }
      return this.readSource(call.stdin.text, call.scope.process(call.cwd), UNKNOWN_OUTPUT);
    }
    return this.runScript(operands[0] as Field, operands.slice(1), call, site);
  }

  /** A script file: read it as a shell script when it is one, otherwise its effects are unknown. */
  private runScript(file: Field, args: readonly Field[], call: Call, site: CommandSite, scope?: Scope): Output {
    const path = file.literal ? this.resolveField(file, call.cwd, call.segment) : undefined;
    const content = path === undefined ? undefined : this.readFile(path);
    // Only the project's own scripts are read: a sourced nvm.sh or a venv's activate is someone else's code.
    const inProject = path !== undefined && !this.repoPath(path).startsWith('../');
    const shell =
      content !== undefined && content.known && content.text !== '' && (!content.text.startsWith('#!') || /^#!\S*\b(ba|z|da|k)?sh\b/.test(content.text));
    if (path === undefined || content === undefined || !inProject || !shell || content.text.length > MAX_SCRIPT_LENGTH) {
      site.unknown(`runs ${file.text}, whose changes to files cannot be known in advance`);
      if (args.some((field) => MENTIONS_HOOKS.test(field.text))) site.bypass(`runs ${file.text} on the git hooks, which may disable the pre-commit gate`);
      return UNKNOWN_OUTPUT;
    }
    const inner = scope ?? call.scope.process(call.cwd);
    args.forEach((field, index) => inner.variables.set(String(index + 1), { value: field.literal ? field.text : undefined, exported: false }));
    if (args.length > 0) site.unknown(`runs ${file.text} with arguments, so its effects depend on them`);
    this.scriptDepth += 1;
    this.origins.push(`${this.repoPath(path)}, which \`${shortened(call.segment, 80)}\` runs`);
    try {
      return this.readSource(content.text, inner, call.stdin);
    } finally {
      this.scriptDepth -= 1;
      this.origins.pop();
    }
  }

  private runWrapper(program: string, fields: readonly Field[], call: Call, site: CommandSite): Output {
    const { inner, flags, values, assignments } = unwrap(program, fields.slice(1));
    const own = (): void => this.runAction(fields, call.source, call.runOverride, call.cwd);
    const splitString = program === 'env' && (values.has('S') || values.has('split-string'));
    const lockCommand = program === 'flock' && (values.has('c') || values.has('command'));
    if (inner.length === 0 || splitString || lockCommand) own();
    const env = new Map([...call.env, ...assignments]);
    if (assignments.size > 0) this.checkAssignments(assignments, call.segment, call.scope, call.cwd);
    const directory = values.get('C') ?? values.get('D') ?? values.get('chdir');
    const cwd = directory !== undefined && (program === 'env' || program === 'sudo') ? this.resolveField(directory, call.cwd, call.segment) : call.cwd;
    const next: Call = { ...call, env, cwd };
    if (program === 'time') {
      const output = values.get('o') ?? values.get('output');
      const path = output === undefined ? undefined : this.resolveField(output, call.cwd, call.segment);
      if (path !== undefined) this.write(call.segment, path, UNKNOWN_OUTPUT);
    }
    if (program === 'env') {
      const split = values.get('S') ?? values.get('split-string');
      if (split !== undefined) return this.runBody([{ ...split, text: [split.text, ...inner.map((field) => quoted(field.text))].join(' ') }], next, site);
    }
    if (program === 'flock') {
      const body = values.get('c') ?? values.get('command');
      if (body !== undefined) return this.runBody([body], next, site);
    }
    if (program === 'command' && (flags.has('v') || flags.has('V'))) {
      own();
      return UNKNOWN_OUTPUT;
    }
    if (program === 'sudo' && inner.length > 0) {
      if (flags.has('e') || flags.has('edit')) {
        own();
        site.unknown('edits files as another user in an editor');
        return UNKNOWN_OUTPUT;
      }
      if (flags.has('l') || flags.has('list')) {
        own();
        return UNKNOWN_OUTPUT;
      }
      if (flags.has('s') || flags.has('i') || flags.has('shell') || flags.has('login')) {
        own();
        return this.runBody(
          [{ ...(inner[0] as Field), text: inner.map((field) => field.text).join(' '), literal: inner.every((field) => field.literal) }],
          next,
          site,
        );
      }
    }
    if (program === 'doas' && flags.has('s')) {
      if (inner.length > 0) own();
      site.unknown('starts a shell as another user');
      return UNKNOWN_OUTPUT;
    }
    if (program === 'xargs') return this.runXargs(inner, values, next);
    if (program === 'setsid' && (flags.has('f') || flags.has('fork')) && inner.length > 0) {
      const before = this.unknownEffects.length;
      this.dispatch(inner, next);
      if (this.unknownEffects.length > before) site.bypass(DETACHED);
      return EMPTY_OUTPUT;
    }
    if (inner.length === 0) {
      // `exec > file` sends everything after it to the file; `env` alone prints the environment.
      return program === 'exec' ? UNKNOWN_OUTPUT : EMPTY_OUTPUT;
    }
    return this.dispatch(inner, next);
  }

  /** xargs runs its command with arguments read from its input: known only when the input is. */
  private runXargs(inner: Field[], values: ReadonlyMap<string, Field>, call: Call): Output {
    const command = inner.length === 0 ? [syntheticField('echo')] : inner;
    const replace = values.get('I') ?? values.get('i') ?? values.get('replace');
    const fromInput = call.stdin.known && values.get('a') === undefined && values.get('arg-file') === undefined;
    const words = fromInput
      ? call.stdin.text
          .split(/\s+/)
          .filter((word) => word !== '')
          .map((word) => syntheticField(word))
      : [syntheticField('<input>', false)];
    const argv =
      replace === undefined
        ? [...command, ...words]
        : command.map((field) => (field.text.includes(replace.text) ? syntheticField(field.text, fromInput && words.length <= 1) : field));
    return this.dispatch(argv, { ...call, stdin: UNKNOWN_OUTPUT, runOverride: call.segment });
  }

  private changeDirectory(program: string, args: readonly Field[], call: Call): void {
    const scope = call.scope;
    const operand = args.find((field) => !/^-[LPe@]+$/.test(field.text));
    const previous = scope.cwd;
    if (program === 'popd') {
      scope.cwd = scope.directoryStack.pop();
    } else if (operand === undefined) {
      scope.cwd = this.home;
    } else if (operand.text === '-' && operand.literal) {
      scope.cwd = scope.previousCwd;
    } else if (!operand.literal || previous === undefined) {
      scope.cwd = undefined;
    } else {
      scope.cwd = resolve(previous, operand.text);
    }
    if (program === 'pushd') scope.directoryStack.push(previous);
    scope.previousCwd = previous;
  }

  private declare(program: string, args: readonly Field[], call: Call): void {
    const exporting = program === 'export' || args.some((field) => /^-[a-zA-Z]*x/.test(field.text));
    const assignments = new Map<string, Field>();
    for (const field of args) {
      if (field.text.startsWith('-')) continue;
      if (!ASSIGNMENT.test(field.knownPrefix) && !ASSIGNMENT.test(field.text)) {
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(field.text)) {
          const current = call.scope.variables.get(field.text);
          call.scope.variables.set(field.text, { value: current?.value, exported: exporting || current?.exported === true });
        }
        continue;
      }
      const equals = field.text.indexOf('=');
      const name = field.text.slice(0, equals).replace(/\+$/, '');
      const value: Field = { ...field, text: field.text.slice(equals + 1), knownPrefix: field.knownPrefix.slice(equals + 1) };
      assignments.set(name, value);
      call.scope.variables.set(name, {
        value: value.literal ? value.text : undefined,
        exported: exporting || call.scope.variables.get(name)?.exported === true,
      });
    }
    this.checkAssignments(assignments, call.segment, call.scope, call.cwd);
  }
}

interface Call {
  readonly segment: string;
  /** The source the command's positions index (for its own text in a run action). */
  readonly source: string;
  readonly scope: Scope;
  readonly stdin: Output;
  readonly cwd: string | undefined;
  /** Assignments in the command's environment: env-prefixes and wrapper assignments. */
  readonly env: ReadonlyMap<string, Field>;
  /** The run action's text when the command was started by another (xargs, find -exec). */
  readonly runOverride?: string;
}
