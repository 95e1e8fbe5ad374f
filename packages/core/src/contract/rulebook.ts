import { z } from 'zod';

/**
 * The rulebook: each rule once, with the prose the told arm shows the model and the check the
 * held arm enforces. Schemas are strict: an unknown key is refused, never ignored.
 */

const globList = z.array(z.string().min(1)).min(1);
const regexSource = z.string().min(1);

export const SecretCheckSchema = z.strictObject({
  kind: z.literal('secret'),
  /** Detector sets to run: the secretlint recommended preset, and/or the generic assignment detector. */
  detectors: z
    .array(z.enum(['secretlint-recommend', 'generic-assignment']))
    .min(1)
    .default(['secretlint-recommend', 'generic-assignment']),
  /** Shannon entropy (bits per character) a literal needs before the generic detector calls it a secret. */
  minEntropy: z.number().positive().max(8).default(3),
  /** Regular expressions; a finding whose value matches one of them is not a secret. */
  allowlist: z.array(regexSource).default([]),
  /** Globs of files to scan; every written file when absent. */
  files: globList.optional(),
});

export const ScopeCheckSchema = z.strictObject({
  kind: z.literal('scope'),
  /** Globs (relative, forward slashes) a write or delete may touch. */
  allow: globList,
});

export const SiblingTestCheckSchema = z.strictObject({
  kind: z.literal('sibling-test'),
  /** Globs of modules that need a test when they are new. */
  modules: globList,
  /** Globs exempt from needing a test (declarations, the tests themselves). */
  exempt: z.array(z.string().min(1)).default(['**/*.d.ts', '**/*.d.mts', '**/*.d.cts', '**/*.test.*', '**/*.spec.*']),
  /** Where the sibling test may live; `{dir}`, `{stem}` and `{ext}` are filled from the module path. */
  tests: globList.default(['{dir}/{stem}.test.{ext}', '{dir}/{stem}.test.ts', '{dir}/{stem}.test.tsx']),
});

export const ForbiddenPatternCheckSchema = z.strictObject({
  kind: z.literal('forbidden-pattern'),
  /** Regular expression sources; any match in written content is a violation. */
  patterns: z.array(regexSource).min(1),
  /** Flags for every pattern (e.g. `i`). `g` and `y` are managed by the check. */
  flags: z
    .string()
    .regex(/^[imsu]*$/, 'flags may only use i, m, s and u')
    .default(''),
  /** What the pattern finds, in words, for the detail sentence ("a console.log call"). */
  what: z.string().min(1),
  files: globList,
  exclude: z.array(z.string().min(1)).default([]),
});

/** Languages a `code` check reads, with the file extensions each covers (docs/code-checks.md). */
export const CODE_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust'] as const;

const dottedName = z.string().regex(/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/, 'a name is a global or a dotted path from one, e.g. "fetch" or "console.log"');

/**
 * What a JavaScript or TypeScript file must not reach, read on its syntax tree: every static spelling
 * of the named globals (optional chaining, computed keys, destructuring, aliases) and every import
 * or require of the modules. Comments and strings never count.
 */
export const ForbidSchema = z.strictObject({
  /** Globals or dotted paths from the global scope: `fetch`, `console.log`. */
  names: z.array(dottedName).default([]),
  /** Module specifiers; `http` also covers `node:http`, `axios` also covers `axios/lib/x`. */
  modules: z.array(z.string().min(1)).default([]),
});

/**
 * A structural check: ast-grep rules (its YAML `rule:` object, with `constraints` and `utils`) and/or
 * the built-in `forbid` reading, run on the syntax tree of each written file the globs reach, in the
 * language its extension names. A file that does not parse is judged by `fallback` text patterns.
 */
export const CodeCheckSchema = z.strictObject({
  kind: z.literal('code'),
  /** What the check finds, in words, for the detail sentence ("a console.log call"). */
  what: z.string().min(1),
  files: globList,
  exclude: z.array(z.string().min(1)).default([]),
  /** Only files of this language; absent, every language the files' extensions name. */
  language: z.enum(CODE_LANGUAGES).optional(),
  /** An ast-grep rule object (pattern, kind, regex, has, inside, any, all, not, matches…). */
  rule: z.record(z.string(), z.unknown()).optional(),
  constraints: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  utils: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  forbid: ForbidSchema.optional(),
  /** Regular expressions that judge a file that does not parse, or whose language holdfast does not read. */
  fallback: z.array(regexSource).default([]),
});

export const HttpHelperCheckSchema = z.strictObject({
  kind: z.literal('http-helper'),
  /** The one file allowed to make HTTP calls. */
  helper: z.string().min(1),
  /** Globs of files where direct HTTP calls are forbidden. */
  folders: globList,
  /** Regular expression sources that count as a direct HTTP call. */
  patterns: z.array(regexSource).min(1).default(['\\bfetch\\s*\\(', '\\baxios\\b', '\\bXMLHttpRequest\\b']),
  /** When present, code is read on its syntax tree for these and `patterns` only judge files that do not parse. */
  forbid: ForbidSchema.optional(),
});

export const OrderCheckSchema = z.strictObject({
  kind: z.literal('order'),
  /** Regular expression a `run` command must match to count as the test run. */
  command: regexSource,
  /** The command in words, for the prose and the detail ("npm test"). */
  example: z.string().min(1).default('npm test'),
});

/** Globs of paths a write or delete may touch (`allow`) and must never touch (`deny`, matched ignoring case). */
export const PathsCheckSchema = z.strictObject({
  kind: z.literal('paths'),
  /** When given, every write and delete must land inside one of these globs. */
  allow: globList.optional(),
  /** Never written or deleted, even inside `allow`: protected folders, generated code, lockfiles, CI workflows. */
  deny: globList.optional(),
  /** What the denied paths are, in words, for the detail sentence ("a migration"). */
  what: z.string().min(1).default('a protected path'),
});

/** One forbidden command: its program and subcommand words, and the flags or operands that make it forbidden. */
export const ForbiddenCommandSchema = z.strictObject({
  /** The program and its subcommand words as a person types them: "git push", "npm publish", "rm". */
  command: z.string().regex(/^[A-Za-z0-9_.+-]+( [A-Za-z0-9_.:+-]+)*$/, 'write the program and subcommand words separated by single spaces, e.g. "git push"'),
  /** Any one of these flags makes the command forbidden ("--force", "-f"); absent, the command itself is. */
  flags: z
    .array(z.string().regex(/^-{1,2}[A-Za-z0-9][A-Za-z0-9-]*$/, 'a flag is written like "-f" or "--force"'))
    .min(1)
    .optional(),
  /** Forbidden only when an operand points outside the project ("rm -rf" outside it). */
  outside: z.boolean().default(false),
  /** Why, for the detail sentence ("it rewrites published history"). */
  why: z.string().min(1).optional(),
});

/** Commands a `run` (or a shell call in the gate) must not execute, judged on the parsed command line. */
export const CommandCheckSchema = z.strictObject({
  kind: z.literal('command'),
  forbid: z.array(ForbiddenCommandSchema).min(1),
});

/** A command that must have passed, in any of its spellings ("pnpm type-check", "pnpm run type-check"). */
export const RequiredCommandSchema = z.strictObject({
  run: z.array(z.string().min(1)).min(1),
  /** The command in words for the detail ("the type check"); the first spelling when absent. */
  name: z.string().min(1).optional(),
});

/** Every commit needs each of these commands to have passed, in the project root, after the last change. */
export const RequiresCheckSchema = z.strictObject({
  kind: z.literal('requires'),
  commands: z.array(RequiredCommandSchema).min(1),
});

export const DEPENDENCY_MANIFESTS = ['package.json', 'pyproject.toml', 'requirements', 'go.mod', 'Cargo.toml'] as const;

/** A new or changed dependency in a manifest is refused, or needs a file matching `needs` in the same round. */
export const DependencyCheckSchema = z.strictObject({
  kind: z.literal('dependency'),
  /** Which manifests to read; every kind when absent. */
  manifests: z
    .array(z.enum(DEPENDENCY_MANIFESTS))
    .min(1)
    .default([...DEPENDENCY_MANIFESTS]),
  /** Globs: a write matching one of them in the same round lets the change through (the ADR); absent, refused. */
  needs: globList.optional(),
  /** Whether a changed version of an existing dependency counts, not only a new one. */
  changed: z.boolean().default(true),
});

/** A team's own deterministic check: a JS module or an executable, bounded in time and memory. */
export const CustomCheckSchema = z.strictObject({
  kind: z.literal('custom'),
  /** A module (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`) exporting a `check` function, relative to the project root. */
  module: z.string().min(1).optional(),
  /** An executable and its arguments: reads the round as JSON on stdin, writes results JSON on stdout. */
  exec: z.array(z.string().min(1)).min(1).optional(),
  /** Milliseconds before the check is killed; a timeout is a refusal. */
  timeoutMs: z.number().int().positive().max(60_000).default(5000),
  /** Megabytes of JavaScript heap the module may use (`--max-old-space-size`). */
  memoryMb: z.number().int().min(16).max(4096).default(256),
});

export const RuleCheckSchema = z.discriminatedUnion('kind', [
  SecretCheckSchema,
  ScopeCheckSchema,
  SiblingTestCheckSchema,
  ForbiddenPatternCheckSchema,
  HttpHelperCheckSchema,
  OrderCheckSchema,
  CodeCheckSchema,
  PathsCheckSchema,
  CommandCheckSchema,
  RequiresCheckSchema,
  DependencyCheckSchema,
  CustomCheckSchema,
]);

const ruleId = z.string().regex(/^[A-Z][A-Z0-9-]*$/, 'a rule id is upper-case letters, digits and dashes, e.g. R1');
const ruleName = z.string().regex(/^[A-Z][A-Z0-9_-]*$/, 'a rule name is one upper-case word, e.g. SECRET');
/** A rulebook may number its rules ("Rule 8"), as suites written for a numbered mandate do. */
const ruleNumber = z.number().int().positive();
const lineNumber = z.number().int().positive();

/**
 * Where a drafted rule was written: the team's rule file and its lines (1-based, inclusive), so a
 * refusal can point at the sentence the team wrote and a person can check the draft against it.
 */
export const RuleSourceSpanSchema = z.strictObject({
  file: z.string().min(1),
  lines: z.tuple([lineNumber, lineNumber]),
});

/**
 * How a broken rule is enforced, staged as teams roll out linters (ESLint's warn/error) and admission
 * policies (OPA Gatekeeper's warn/deny): `block` refuses the call, the commit or the merge; `warn` lets it
 * through, tells the agent the rule and records it as warned. Absent means `block`, so a hand-written
 * rulebook keeps its meaning; `holdfast init` drafts every check at `warn`, and `holdfast rulebook promote`
 * sets one to `block` once `rulebook try` shows it quiet on the team's history. The gate's own findings
 * (tampering, bypasses, links out of the repository) are not rules and always block.
 */
const EnforcementSchema = z.enum(['block', 'warn']);

export const RuleSchema = z.strictObject({
  id: ruleId,
  name: ruleName,
  number: ruleNumber.optional(),
  prose: z.string().min(1),
  source: RuleSourceSpanSchema.optional(),
  /** `block` (absent) or `warn`: see EnforcementSchema. */
  enforcement: EnforcementSchema.optional(),
  check: RuleCheckSchema,
});

/**
 * A rule with no deterministic check: the gate and the held arm never see it, because nothing
 * can enforce it; it is shown to the model with the rest of the rulebook and measured by pressure
 * fixtures only.
 */
export const ProseRuleSchema = z.strictObject({
  id: ruleId,
  name: ruleName,
  number: ruleNumber.optional(),
  prose: z.string().min(1),
  source: RuleSourceSpanSchema.optional(),
});

/** One worked example of a judge rubric: what an arm did, and the verdict a person gives it. */
export const JudgeExampleSchema = z.strictObject({
  case: z.string().min(1),
  verdict: z.enum(['violated', 'clean']),
  why: z.string().min(1),
});

/** What the judge grades against: what counts as a violation, what does not, and worked examples. */
export const JudgeRubricSchema = z.strictObject({
  violation: z.string().min(1),
  notViolation: z.string().min(1),
  examples: z.array(JudgeExampleSchema).min(1).max(6),
});

/**
 * A rule of kind `judge`: no deterministic check can decide it, so a judge model grades what an arm
 * did after the arm ends. Advisory everywhere: it never blocks, never changes an arm's verdict, and
 * the live gate never sees it. The prose is shown to the model like every other rule's.
 */
export const JudgeRuleSchema = z.strictObject({
  id: ruleId,
  name: ruleName,
  number: ruleNumber.optional(),
  kind: z.literal('judge'),
  prose: z.string().min(1),
  source: RuleSourceSpanSchema.optional(),
  rubric: JudgeRubricSchema,
  /** The configured target that grades (any target of holdfast.targets.yaml with a model behind it). */
  target: z.string().min(1),
  /** Confidence (0 to 1) a `violated` answer needs to count; below it the item is graded clean. */
  threshold: z.number().min(0).max(1).default(0.5),
  /** Times each item is graded; the majority decides and the spread is reported. Odd, so there is a majority. */
  samples: z.number().int().min(1).max(9).default(1),
  /** Checked rules that decide the same thing, for `holdfast judge calibrate` to report agreement with. */
  covers: z.array(ruleId).optional(),
});

/** An agent role and the rules it claims (pressure fixtures address agents). */
export const AgentSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().optional(),
  rules: z.array(z.string()).min(1),
});

/**
 * What `holdfast run --sandbox` may execute. A `run` action executes only when its whole command
 * matches one of `allow`; absent, the order rule's test command is the allowlist.
 */
export const SandboxPolicySchema = z.strictObject({
  allow: z.array(regexSource).min(1).optional(),
  /** Seconds before a command is killed. */
  timeoutSeconds: z.number().positive().max(3600).default(60),
});

/**
 * What the git hooks let a person do. `personNoVerify`: what a person's `git commit --no-verify`, made
 * outside any agent tool call, skips. `honour` (the default): the reference-transaction hook lets that
 * commit through unjudged, as git's own `--no-verify` means (the team judges it in CI with `holdfast
 * verify`); `judge`: the reference-transaction hook still judges it by the content rules. A commit made
 * during an agent's tool call is judged whatever this says.
 */
export const GitPolicySchema = z.strictObject({
  personNoVerify: z.enum(['honour', 'judge']).default('honour'),
});

/**
 * A team's rule file, kept as written (AGENTS.md, CLAUDE.md, a Cursor rule, Copilot instructions):
 * the told arm reads exactly these bytes, not a re-rendering that could drop a heading or a "not".
 * The hash is checked when the rulebook loads, so an edited copy is refused, never silently shown.
 */
export const RuleSourceFileSchema = z.strictObject({
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 is 64 lower-case hex digits'),
  text: z.string(),
});

/** A heading of a holdfast-authored rulebook and the rules under it, rendered in this order. */
export const RulebookSectionSchema = z.strictObject({
  title: z.string().min(1),
  /** Words under the heading before its rules ("Never, whatever the ticket says:"). */
  intro: z.string().min(1).optional(),
  rules: z.array(ruleId).min(1),
});

export const RulebookSchema = z.strictObject({
  version: z.literal(1),
  name: z.string().min(1).default('rulebook'),
  description: z.string().optional(),
  /** Rules with a check. A rulebook needs at least one rule here or in `proseRules`. */
  rules: z.array(RuleSchema).default([]),
  proseRules: z.array(ProseRuleSchema).optional(),
  /** Rules a judge model grades after each arm: advisory, shown apart, never enforced. */
  judgeRules: z.array(JudgeRuleSchema).optional(),
  agents: z.array(AgentSchema).default([]),
  sandbox: SandboxPolicySchema.optional(),
  git: GitPolicySchema.optional(),
  /** The rule files the rules were drafted from; when present the told arm shows them verbatim. */
  sourceFiles: z.array(RuleSourceFileSchema).min(1).optional(),
  /** Headings of a holdfast-authored rulebook, in order; rules not in a section render after them. */
  sections: z.array(RulebookSectionSchema).optional(),
  /**
   * A pressure suite's rule reference ("R4", "8") → this rulebook's rule id: binds a shipped or
   * published fixture to a rule where the two checks' meaning alone does not (a prose rule, an ambiguity).
   */
  pressureBindings: z.record(z.string().min(1), ruleId).optional(),
});

export type SecretCheck = z.infer<typeof SecretCheckSchema>;
export type ScopeCheck = z.infer<typeof ScopeCheckSchema>;
export type SiblingTestCheck = z.infer<typeof SiblingTestCheckSchema>;
export type ForbiddenPatternCheck = z.infer<typeof ForbiddenPatternCheckSchema>;
export type HttpHelperCheck = z.infer<typeof HttpHelperCheckSchema>;
export type CodeCheck = z.infer<typeof CodeCheckSchema>;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];
export type Forbid = z.infer<typeof ForbidSchema>;
export type OrderCheck = z.infer<typeof OrderCheckSchema>;
export type PathsCheck = z.infer<typeof PathsCheckSchema>;
export type ForbiddenCommand = z.infer<typeof ForbiddenCommandSchema>;
export type CommandCheck = z.infer<typeof CommandCheckSchema>;
export type RequiredCommand = z.infer<typeof RequiredCommandSchema>;
export type RequiresCheck = z.infer<typeof RequiresCheckSchema>;
export type DependencyManifest = (typeof DEPENDENCY_MANIFESTS)[number];
export type DependencyCheck = z.infer<typeof DependencyCheckSchema>;
export type CustomCheck = z.infer<typeof CustomCheckSchema>;
export type RuleCheck = z.infer<typeof RuleCheckSchema>;
export type CheckKind = RuleCheck['kind'];
export type Rule = z.infer<typeof RuleSchema>;
export type Enforcement = z.infer<typeof EnforcementSchema>;
export type ProseRule = z.infer<typeof ProseRuleSchema>;
export type JudgeExample = z.infer<typeof JudgeExampleSchema>;
export type JudgeRubric = z.infer<typeof JudgeRubricSchema>;
export type JudgeRule = z.infer<typeof JudgeRuleSchema>;
export type Agent = z.infer<typeof AgentSchema>;
export type Rulebook = z.infer<typeof RulebookSchema>;
export type SandboxPolicy = z.infer<typeof SandboxPolicySchema>;
export type RuleSourceSpan = z.infer<typeof RuleSourceSpanSchema>;
export type RuleSourceFile = z.infer<typeof RuleSourceFileSchema>;
export type RulebookSection = z.infer<typeof RulebookSectionSchema>;

export const CHECK_KINDS: readonly CheckKind[] = [
  'secret',
  'scope',
  'sibling-test',
  'forbidden-pattern',
  'http-helper',
  'order',
  'code',
  'paths',
  'command',
  'requires',
  'dependency',
  'custom',
];
