import { LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { z } from 'zod';
import {
  AgentSchema,
  CHECK_KINDS,
  JudgeRuleSchema,
  ProseRuleSchema,
  RuleCheckSchema,
  RuleSchema,
  RulebookSchema,
  SandboxPolicySchema,
  GitPolicySchema,
} from '../contract/index.js';
import type { Rule, Rulebook } from '../contract/index.js';
import { globProblem } from './glob.js';
import { normalizeRepoPath } from './paths.js';
import { codeCheckProblems } from './code/code-check-problems.js';
import { compilePattern } from './regex.js';
import { RulebookError } from './rulebook-error.js';
import { sourceProblems } from './rulebook-sources.js';
import type { RulebookProblem } from './rulebook-error.js';
import { valueAt } from './value-at.js';

export type SafeParseRulebookResult = { ok: true; rulebook: Rulebook } | { ok: false; error: RulebookError };

type Path = readonly PropertyKey[];

const MAX_PROBLEMS = 20;

/** Reads a YAML rulebook. Deny by default: anything unknown, ill-typed or uncompilable is refused. */
export function parseRulebook(text: string, file: string): Rulebook {
  const parsed = safeParseRulebook(text, file);
  if (!parsed.ok) throw parsed.error;
  return parsed.rulebook;
}

/**
 * A rulebook read back from a run file (a replay, a resume) passes the loader's checks too, so a
 * recorded pattern RE2 refuses is refused here, naming the run file, instead of failing every check.
 */
export function checkRecordedRulebook(rulebook: Rulebook, runFile: string): Rulebook {
  return parseRulebook(JSON.stringify(rulebook), `${runFile} (its recorded rulebook)`);
}

export function safeParseRulebook(text: string, file: string): SafeParseRulebookResult {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const yamlProblems = [...document.errors, ...document.warnings].map((error): RulebookProblem => {
    const position = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
    return {
      location: `line ${position.line}, column ${position.col}`,
      line: undefined,
      message: `YAML syntax error: ${error.message.split('\n')[0] ?? error.code}`,
    };
  });
  if (yamlProblems.length > 0) return { ok: false, error: new RulebookError('E_RULEBOOK_YAML', file, yamlProblems) };

  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: new RulebookError('E_RULEBOOK_YAML', file, [
        { location: 'top level', line: undefined, message: `${message}; write the rules out without YAML aliases` },
      ]),
    };
  }
  if (data === null || data === undefined) {
    return {
      ok: false,
      error: new RulebookError('E_RULEBOOK_INVALID', file, [
        { location: 'top level', line: undefined, message: 'the rulebook is empty; write a mapping with `version: 1` and a `rules:` list' },
      ]),
    };
  }

  const locate = (path: Path) => ({ location: describeLocation(data, path), line: lineOf(document, lineCounter, path) });
  const schemaResult = RulebookSchema.safeParse(data);
  if (!schemaResult.success) {
    const problems = schemaResult.error.issues.slice(0, MAX_PROBLEMS).map((issue) => ({ ...locate(issue.path), message: explainIssue(issue, data) }));
    return { ok: false, error: new RulebookError('E_RULEBOOK_INVALID', file, problems) };
  }
  const semanticProblems = validateRulebook(schemaResult.data)
    .slice(0, MAX_PROBLEMS)
    .map(({ path, message }) => ({ ...locate(path), message }));
  if (semanticProblems.length > 0) return { ok: false, error: new RulebookError('E_RULEBOOK_INVALID', file, semanticProblems) };
  return { ok: true, rulebook: schemaResult.data };
}

/** What the schema cannot say: regexes compile on RE2 (linear-time matching), globs are relative, ids are unique. */
function validateRulebook(rulebook: Rulebook): { path: Path; message: string }[] {
  const problems: { path: Path; message: string }[] = [];
  const ids = new Set<string>();
  const names = new Set<string>();
  rulebook.rules.forEach((rule, index) => {
    const at = (...rest: PropertyKey[]): Path => ['rules', index, ...rest];
    if (ids.has(rule.id)) problems.push({ path: at('id'), message: `duplicate rule id "${rule.id}"; give each rule its own id` });
    if (names.has(rule.name)) problems.push({ path: at('name'), message: `duplicate rule name "${rule.name}"; give each rule its own name` });
    ids.add(rule.id);
    names.add(rule.name);
    if (rule.prose.trim() === '') problems.push({ path: at('prose'), message: 'the prose is blank; write the rule as a person would in AGENTS.md' });
    for (const [key, sources, flags] of regexFields(rule)) {
      sources.forEach((source, position) => {
        const problem = regexProblem(source, flags);
        if (problem !== undefined) problems.push({ path: at('check', key, ...(key === 'command' ? [] : [position])), message: problem });
      });
    }
    for (const [key, globs] of globFields(rule)) {
      globs.forEach((glob, position) => {
        const problem = globProblem(glob);
        if (problem !== undefined) {
          problems.push({ path: at('check', key, position), message: `"${glob}" ${problem}; write a relative glob with forward slashes, e.g. "src/**"` });
        }
      });
    }
    if (rule.check.kind === 'http-helper') {
      const helper = normalizeRepoPath(rule.check.helper);
      if (!helper.ok || helper.path !== rule.check.helper) {
        problems.push({ path: at('check', 'helper'), message: `"${rule.check.helper}" is not a plain relative file path; write one like "src/lib/http.ts"` });
      }
    }
    if (rule.check.kind === 'code') {
      for (const problem of codeCheckProblems(rule.check)) problems.push({ path: at('check', ...problem.path), message: problem.message });
    }
    problems.push(...kindProblems(rule).map((problem) => ({ path: at('check', ...problem.path), message: problem.message })));
    if (rule.check.kind === 'sibling-test') {
      rule.check.tests.forEach((template, position) => {
        const unknown = /\{([A-Za-z_]+)\}/.exec(template.replace(/\{(dir|stem|ext)\}/g, ''));
        if (unknown !== null) {
          problems.push({
            path: at('check', 'tests', position),
            message: `unknown placeholder {${unknown[1]}}; use {dir}, {stem} or {ext}, e.g. "{dir}/{stem}.test.{ext}"`,
          });
        }
      });
    }
  });
  rulebook.sandbox?.allow?.forEach((source, position) => {
    const problem = regexProblem(source, '');
    if (problem !== undefined) problems.push({ path: ['sandbox', 'allow', position], message: problem });
  });
  if (rulebook.sandbox !== undefined && rulebook.sandbox.allow === undefined && !rulebook.rules.some((rule) => rule.check.kind === 'order')) {
    problems.push({
      path: ['sandbox'],
      message: 'the sandbox allowlist defaults to the order rule\'s test command, and this rulebook has no order rule; write `allow: ["^npm test$"]`',
    });
  }
  checkProseRules(rulebook, ids, names, problems);
  checkJudgeRules(rulebook, problems);
  problems.push(...sourceProblems(rulebook));
  const agentIds = new Set<string>();
  rulebook.agents.forEach((agent, index) => {
    if (agentIds.has(agent.id)) problems.push({ path: ['agents', index, 'id'], message: `duplicate agent id "${agent.id}"; give each agent its own id` });
    agentIds.add(agent.id);
    agent.rules.forEach((ruleId, position) => {
      if (!ids.has(ruleId)) {
        problems.push({
          path: ['agents', index, 'rules', position],
          message: `unknown rule "${ruleId}"; claim rules this rulebook defines (${[...ids].join(', ')})`,
        });
      }
    });
  });
  return problems;
}

/** Prose and judge rules share the id and name space with checked rules; numbers are unique across all three. */
function checkProseRules(rulebook: Rulebook, ids: Set<string>, names: Set<string>, problems: { path: Path; message: string }[]): void {
  if (rulebook.rules.length === 0 && (rulebook.proseRules ?? []).length === 0 && (rulebook.judgeRules ?? []).length === 0) {
    problems.push({
      path: ['rules'],
      message:
        'the rulebook has no rules: write at least 1 item under `rules:` (with a check), `proseRules:` (prose only) or `judgeRules:` (graded by a judge)',
    });
  }
  const unchecked: [string, readonly { readonly id: string; readonly name: string; readonly prose: string }[]][] = [
    ['proseRules', rulebook.proseRules ?? []],
    ['judgeRules', rulebook.judgeRules ?? []],
  ];
  for (const [section, list] of unchecked)
    list.forEach((rule, index) => {
      const at = (key: string): Path => [section, index, key];
      if (ids.has(rule.id)) problems.push({ path: at('id'), message: `duplicate rule id "${rule.id}"; give each rule its own id` });
      if (names.has(rule.name)) problems.push({ path: at('name'), message: `duplicate rule name "${rule.name}"; give each rule its own name` });
      ids.add(rule.id);
      names.add(rule.name);
      if (rule.prose.trim() === '') problems.push({ path: at('prose'), message: 'the prose is blank; write the rule as a person would in AGENTS.md' });
    });
  const numbers = new Map<number, string>();
  const numbered: [string, { readonly id: string; readonly number?: number | undefined }[]][] = [
    ['rules', rulebook.rules],
    ['proseRules', rulebook.proseRules ?? []],
    ['judgeRules', rulebook.judgeRules ?? []],
  ];
  for (const [section, list] of numbered) {
    list.forEach((rule, index) => {
      if (rule.number === undefined) return;
      const other = numbers.get(rule.number);
      if (other !== undefined)
        problems.push({
          path: [section, index, 'number'],
          message: `rule ${rule.id} has number ${rule.number}, which rule ${other} already has; give each rule its own number`,
        });
      else numbers.set(rule.number, rule.id);
    });
  }
}

/** A judge rule's majority needs an odd sample count; `covers` names checked rules that decide the same thing. */
function checkJudgeRules(rulebook: Rulebook, problems: { path: Path; message: string }[]): void {
  const checked = new Set(rulebook.rules.map((rule) => rule.id));
  (rulebook.judgeRules ?? []).forEach((rule, index) => {
    if (rule.samples % 2 === 0) {
      problems.push({
        path: ['judgeRules', index, 'samples'],
        message: `${rule.samples} samples can split evenly; use an odd number (1, 3 or 5) so the majority decides`,
      });
    }
    rule.covers?.forEach((id, position) => {
      if (!checked.has(id)) {
        problems.push({
          path: ['judgeRules', index, 'covers', position],
          message: `"${id}" is not a rule with a check here; name checked rules (${[...checked].join(', ') || 'none'}) or remove it`,
        });
      }
    });
  });
}

/** What the schema of the issue #28 kinds cannot say: a paths rule allows or denies something, a custom check names one program. */
function kindProblems(rule: Rule): { path: Path; message: string }[] {
  const check = rule.check;
  if (check.kind === 'paths' && check.allow === undefined && check.deny === undefined) {
    return [{ path: [], message: 'a paths check needs `allow:` or `deny:` (or both), e.g. deny: ["migrations/**"]' }];
  }
  if (check.kind === 'custom') {
    if ((check.module === undefined) === (check.exec === undefined)) {
      return [
        { path: [], message: 'a custom check names exactly one of `module:` (a .js/.mjs module exporting check) or `exec:` (a program reading JSON on stdin)' },
      ];
    }
    if (check.module !== undefined) {
      const module = normalizeRepoPath(check.module);
      if (!module.ok || module.path !== check.module || !/\.(js|mjs|cjs|ts|mts|cts)$/.test(check.module)) {
        return [
          {
            path: ['module'],
            message: `"${check.module}" is not a plain relative path to a .js, .mjs, .cjs, .ts or .mts file; write one like "checks/no-todo.mjs"`,
          },
        ];
      }
    }
  }
  return [];
}

function regexFields(rule: Rule): [string, readonly string[], string][] {
  const check = rule.check;
  switch (check.kind) {
    case 'forbidden-pattern':
      return [['patterns', check.patterns, check.flags]];
    case 'http-helper':
      return [['patterns', check.patterns, '']];
    case 'code':
      return [['fallback', check.fallback, '']];
    case 'order':
      return [['command', [check.command], '']];
    case 'secret':
      return [['allowlist', check.allowlist, '']];
    case 'scope':
    case 'sibling-test':
      return [];
    case 'paths':
    case 'command':
    case 'requires':
    case 'dependency':
    case 'custom':
      return [];
  }
}

function globFields(rule: Rule): [string, readonly string[]][] {
  const check = rule.check;
  switch (check.kind) {
    case 'scope':
      return [['allow', check.allow]];
    case 'sibling-test':
      return [
        ['modules', check.modules],
        ['exempt', check.exempt],
      ];
    case 'forbidden-pattern':
      return [
        ['files', check.files],
        ['exclude', check.exclude],
      ];
    case 'http-helper':
      return [['folders', check.folders]];
    case 'code':
      return [
        ['files', check.files],
        ['exclude', check.exclude],
      ];
    case 'secret':
      return check.files === undefined ? [] : [['files', check.files]];
    case 'order':
      return [];
    case 'paths':
      return [
        ['allow', check.allow ?? []],
        ['deny', check.deny ?? []],
      ];
    case 'dependency':
      return [['needs', check.needs ?? []]];
    case 'command':
    case 'requires':
    case 'custom':
      return [];
  }
}

function regexProblem(source: string, flags: string): string | undefined {
  const compiled = compilePattern(source, flags);
  if (compiled.ok) return undefined;
  return `${JSON.stringify(source)} is not a regular expression RE2 accepts (${compiled.reason}); ${compiled.instead}. Rulebook patterns run on RE2 so that matching takes linear time on any input`;
}

// --- turning schema issues into sentences --------------------------------------------------------

const EXAMPLES: Record<string, string> = {
  version: '1',
  name: '"NOLOG"',
  id: '"R7"',
  prose: 'the rule as a person would write it in AGENTS.md',
  kind: CHECK_KINDS.map((kind) => `"${kind}"`).join(', '),
  allow: '["src/**"]',
  files: '["src/**/*.ts"]',
  exclude: '["src/**/*.test.ts"]',
  folders: '["src/features/**"]',
  modules: '["src/**/*.ts"]',
  exempt: '["**/*.d.ts"]',
  tests: '["{dir}/{stem}.test.{ext}"]',
  patterns: '["console\\\\.log\\\\s*\\\\("]',
  allowlist: '["^EXAMPLE_"]',
  detectors: '["secretlint-recommend", "generic-assignment"]',
  minEntropy: '3',
  flags: '"i"',
  helper: '"src/lib/http.ts"',
  command: '"^npm (run )?test\\\\b"',
  example: '"npm test"',
  what: '"a console.log call"',
  rules: '["R1", "R2"]',
  number: '8',
  description: 'a sentence',
  check: '{ kind: scope, allow: ["src/**"] }',
  agents: '[{ id: implementer, rules: ["R1"] }]',
  target: '"local-judge", the id of a target in holdfast.targets.yaml',
  threshold: '0.7',
  samples: '3',
  rubric: '{ violation: ..., notViolation: ..., examples: [...] }',
  violation: 'what counts as breaking the rule, in sentences',
  notViolation: 'what does not count, in sentences',
  examples: '[{ case: "...", verdict: violated, why: "..." }]',
  case: 'what the arm did, in a sentence or a diff',
  why: 'why a person gives this verdict',
  covers: '["R4"]',
  deny: '["migrations/**", "**/package-lock.json"]',
  forbid: '[{ command: "git push", flags: ["--force", "-f"] }]',
  commands: '[{ run: ["pnpm type-check"] }]',
  run: '["npm test", "npm run test"]',
  needs: '["docs/adr/*.md"]',
  manifests: '["package.json", "go.mod"]',
  module: '"checks/no-todo.mjs"',
  exec: '["python3", "checks/no_todo.py"]',
  timeoutMs: '5000',
  memoryMb: '256',
};

function explainIssue(issue: z.core.$ZodIssue, data: unknown): string {
  const field = [...issue.path].reverse().find((key): key is string => typeof key === 'string') ?? '';
  const example = EXAMPLES[field];
  const instead =
    example === undefined
      ? ''
      : `; write ${example.startsWith('[') || example.startsWith('"') || /^\d/.test(example) || example.startsWith('{') ? `e.g. ${example}` : example}`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedKeys(issue.path, data);
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}; remove ${issue.keys.length > 1 ? 'them' : 'it'}${allowed === undefined ? '' : ` (allowed: ${allowed.join(', ')})`}`;
    }
    case 'invalid_union': {
      const value = valueAt(data, issue.path);
      if (issue.path[issue.path.length - 1] === 'kind') {
        if (value === 'judge')
          return 'a judge-graded rule has no check: move it under `judgeRules:` with `kind: judge`, a rubric and a judge target (it is advisory, never enforced)';
        const shown = value === undefined ? 'is missing' : `${JSON.stringify(value)} is not a check kind`;
        return `${shown === 'is missing' ? 'the check kind is missing' : shown}; write one of ${CHECK_KINDS.join(', ')}`;
      }
      return `${issue.message}${instead}`;
    }
    case 'invalid_type': {
      const value = valueAt(data, issue.path);
      const got = value === undefined ? 'it is missing' : `got ${describeType(value)}`;
      return `expected ${article(issue.expected)}, ${got}${instead}`;
    }
    case 'invalid_value':
      return `${JSON.stringify(valueAt(data, issue.path))} is not allowed; write one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'array') return `the list needs at least ${String(issue.minimum)} item${Number(issue.minimum) === 1 ? '' : 's'}${instead}`;
      if (issue.origin === 'string') return `must not be empty${instead}`;
      return `must be more than ${String(issue.minimum)}${instead}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${instead}`;
    default:
      return `${issue.message}${instead}`;
  }
}

function allowedKeys(path: Path, data: unknown): string[] | undefined {
  if (path.length === 0) return Object.keys(RulebookSchema.shape);
  if (path.length === 2 && path[0] === 'rules') return Object.keys(RuleSchema.shape);
  if (path.length === 2 && path[0] === 'proseRules') return Object.keys(ProseRuleSchema.shape);
  if (path.length === 2 && path[0] === 'judgeRules') return Object.keys(JudgeRuleSchema.shape);
  if (path.length === 2 && path[0] === 'agents') return Object.keys(AgentSchema.shape);
  if (path.length === 1 && path[0] === 'sandbox') return Object.keys(SandboxPolicySchema.shape);
  if (path.length === 1 && path[0] === 'git') return Object.keys(GitPolicySchema.shape);
  if (path.length === 3 && path[0] === 'rules' && path[2] === 'check') {
    const kind = valueAt(data, [...path, 'kind']);
    const option = RuleCheckSchema.options.find((candidate) => candidate.shape.kind.value === kind);
    return option === undefined ? undefined : Object.keys(option.shape);
  }
  return undefined;
}

function describeLocation(data: unknown, path: Path): string {
  if (path.length === 0) return 'top level';
  const [section, index, ...rest] = path;
  if ((section === 'rules' || section === 'proseRules' || section === 'judgeRules' || section === 'agents') && typeof index === 'number') {
    const id = valueAt(data, [section, index, 'id']);
    const noun = section === 'agents' ? 'agent' : 'rule';
    const who = typeof id === 'string' && id !== '' ? `${noun} ${id}` : `${noun} #${index + 1}`;
    return rest.length === 0 ? who : `${who}, field ${fieldPath(rest)}`;
  }
  return `field ${fieldPath(path)}`;
}

function fieldPath(path: Path): string {
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`;
  return text;
}

function lineOf(document: Document, lineCounter: LineCounter, path: Path): number | undefined {
  for (let length = path.length; length >= 0; length--) {
    const node: unknown = document.getIn(path.slice(0, length) as unknown[], true);
    const range = typeof node === 'object' && node !== null && 'range' in node ? (node as { range?: unknown }).range : undefined;
    if (Array.isArray(range) && typeof range[0] === 'number') return lineCounter.linePos(range[0]).line;
  }
  return undefined;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const shown = JSON.stringify(value) ?? String(value);
  // A long value (a whole file read as one string) is cut: the message says what it is, not all of it.
  return `${article(typeof value)} (${shown.length > 60 ? `${shown.slice(0, 57)}…` : shown})`;
}

function article(type: string): string {
  const words: Record<string, string> = {
    array: 'a list',
    object: 'a mapping',
    string: 'a string',
    number: 'a number',
    boolean: 'true or false',
    int: 'a whole number',
  };
  return words[type] ?? type;
}
