import { readFile, writeFile, appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { PressureRecord } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { formatRate } from '@holdfast/lab/report';
import { EXIT, readAllText, withCommandPrefix, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

type PressureModule = typeof import('@holdfast/lab/pressure');

const COMMON_HELP = `Common options:
  --fixtures DIR     fixtures folder (default: fixtures/pressure, else the shipped one)
  --rulebook FILE    the rulebook measured (default: the one the suite's suite.json names, else none:
                     fixtures that name rules by number then score by the number alone)
  --agents DIR       Markdown agent files (front matter \`name\`) that declare the suite's agents;
                     a fixture's agent must then be declared, and its file is the live system prompt
  -h, --help         this help`;

const SUBCOMMAND_USAGE: Record<string, string> = {
  lint: `Usage: holdfast pressure lint [DIR] [--json]

Validate fixtures. Exit 1 on any refusal; warnings (checks beyond ADR-0024) never fail.`,
  list: `Usage: holdfast pressure list [--rule R] [--agent A] [--json]

List fixtures. --rule takes a rule id (R1) or number (8, "Rule 8").`,
  coverage: `Usage: holdfast pressure coverage [--json]

Rules with and without fixtures; a fixture written for another rulebook counts only where its rule's
check means the same. Exit 1 on drift from uncovered.json, on a refused fixture and on an unreadable file.`,
  new: `Usage: holdfast pressure new --rule ID [--slug WORDS] [--agent A] [--out FILE] [--force]

Write a fixture skeleton for one rule of the rulebook (three pressures, four options, a
rationalisation table); lint refuses it until every <fill in: …> is written.`,
  prompt: `Usage: holdfast pressure prompt --fixture ID [--untold] [--json]

Print the prompt a model sees (with --agents, the fixture's agent definition is the system prompt).`,
  evaluate: `Usage: holdfast pressure evaluate --fixture ID --response-file F [--no-citation] [--json]

Score one reply: exit 0 pass, 1 fail. F may be - for stdin.`,
  report: `Usage: holdfast pressure report --responses FILE.jsonl [--no-citation] [--out FILE] [--json]

Score recorded replies ({"fixture_id", "response"} a line; --responses-file is the same flag).
A gate: exit 1 when any reply fails, and when the file holds no reply. --out writes a results file.`,
  run: `Usage: holdfast pressure run --targets A,B [--reps N] [--untold] [--fixture ID]... [--rule R]
                             [--out FILE] [--no-citation] [--concurrency N] [--temperature T] [--max-tokens N]

Ask live models or agent harnesses (claude-code, codex, gemini-cli, qwen-code, opencode, copilot-cli, agent
targets: each fixture in a fresh project and HOME, the agent file where the harness reads its rules). Exit 1 unless every reply passes.`,
  compare: `Usage: holdfast pressure compare BASE NEW [--alpha P] [--base-target T --new-target U] [--json]

Verdict flips between two results files; exit 1 on a pass→fail flip or a fixture missing in NEW.
Across a model swap under a new target id, name both targets, or let each file hold one target:
results are then paired by fixture.`,
  docs: `Usage: holdfast pressure docs [--out FILE]

The rationalisation tables per rule, as markdown.`,
};

const USAGE = `Usage: holdfast pressure <subcommand> [options]

Pressure fixtures: does a rule bind when holding it is expensive?

Subcommands:
${Object.values(SUBCOMMAND_USAGE)
  .map((usage) => `  ${(usage.split('\n')[0] ?? '').replace('Usage: holdfast pressure ', '')}`)
  .join('\n')}
Run \`holdfast pressure <subcommand> --help\` for what each does.

${COMMON_HELP}

Exit codes: 0 ok, 1 judged failure, 2 bad input, 3 internal error.`;

const COMMON = {
  fixtures: { type: 'string' },
  rulebook: { type: 'string' },
  agents: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    writeLine(subcommand === undefined ? io.stderr : io.stdout, USAGE);
    return subcommand === undefined ? EXIT.usage : EXIT.ok;
  }
  const handler = SUBCOMMANDS[subcommand];
  if (handler === undefined) {
    writeLine(io.stderr, `holdfast pressure: unknown subcommand "${subcommand}". Subcommands: ${Object.keys(SUBCOMMANDS).join(', ')}.`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    writeLine(io.stdout, `${SUBCOMMAND_USAGE[subcommand] ?? USAGE}\n\n${COMMON_HELP}`);
    return EXIT.ok;
  }
  try {
    const pressure = await import('@holdfast/lab/pressure');
    return await handler(rest, io, pressure);
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, withCommandPrefix(`pressure ${subcommand}`, error.message));
      return EXIT.usage;
    }
    writeLine(io.stderr, `holdfast pressure ${subcommand}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
}

type Handler = (args: string[], io: CliIo, pressure: PressureModule) => Promise<number>;

const SUBCOMMANDS: Record<string, Handler> = {
  lint: lintCommand,
  list: listCommand,
  coverage: coverageCommand,
  prompt: promptCommand,
  evaluate: evaluateCommand,
  report: reportCommand,
  run: runCommand,
  compare: compareCommand,
  docs: docsCommand,
  new: newCommand,
};

function suiteOptions(
  io: CliIo,
  pressure: PressureModule,
  values: { fixtures?: string | undefined; rulebook?: string | undefined; agents?: string | undefined },
  dir?: string,
) {
  return {
    dir: dir !== undefined ? resolve(io.cwd, dir) : values.fixtures !== undefined ? resolve(io.cwd, values.fixtures) : pressure.defaultFixturesDir(io.cwd),
    ...(values.rulebook === undefined ? {} : { rulebookFile: resolve(io.cwd, values.rulebook) }),
    ...(values.agents === undefined ? {} : { agentsDir: resolve(io.cwd, values.agents) }),
  };
}

function json(io: CliIo, value: unknown): void {
  writeLine(io.stdout, JSON.stringify(value, null, 2));
}

/** Commands that use fixtures but are not lint still say when some were refused. */
function warnRefused(io: CliIo, count: number): void {
  if (count > 0) writeLine(io.stderr, `warning: ${count} fixture refusal(s); those fixtures are skipped. Run \`holdfast pressure lint\`.`);
}

async function lintCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values, positionals } = parseCommandArgs('pressure lint', args, COMMON);
  if (positionals.length > 1) throw new InputError('E_ARGS', 'takes at most one folder');
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values, positionals[0]));
  if (values.json === true) {
    json(io, {
      ok: suite.refusals.length === 0,
      fixtures: suite.fixtures.map((fixture) => fixture.id),
      refusals: suite.refusals,
      warnings: suite.warnings,
      unbound: suite.unbound,
    });
  } else {
    for (const refusal of suite.refusals) writeLine(io.stdout, pressure.formatRefusal(refusal));
    for (const warning of suite.warnings) writeLine(io.stdout, `warning: ${pressure.formatRefusal(warning)}`);
    for (const entry of suite.unbound) writeLine(io.stdout, `not applicable: ${entry.id}: ${entry.reason}`);
    const refusedFiles = new Set(suite.refusals.map((refusal) => refusal.file)).size;
    const warned = suite.warnings.length === 0 ? '' : `, ${suite.warnings.length} warning(s)`;
    writeLine(io.stdout, `${suite.fixtures.length} fixture(s) ok, ${suite.refusals.length} refusal(s) in ${refusedFiles} file(s)${warned}.`);
  }
  return suite.refusals.length === 0 ? EXIT.ok : EXIT.failed;
}

async function listCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values, positionals } = parseCommandArgs('pressure list', args, {
    ...COMMON,
    rule: { type: 'string' },
    agent: { type: 'string' },
  });
  if (positionals.length > 0) throw new InputError('E_ARGS', `unexpected argument "${positionals[0]}"`);
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  warnRefused(io, suite.refusals.length);
  const fixtures = suite.fixtures.filter(
    (fixture) =>
      (values.rule === undefined || pressure.ruleMatches(pressure.suiteRuleOf(suite, fixture), fixture, values.rule)) &&
      (values.agent === undefined || fixture.agent === values.agent),
  );
  if (values.json === true) {
    json(io, fixtures);
    return EXIT.ok;
  }
  for (const fixture of fixtures) {
    writeLine(io.stdout, `${fixture.id}  ${fixture.rule}  ${fixture.agent ?? '-'}  [${fixture.pressures.join(', ')}]  ${fixture.title}`);
  }
  writeLine(io.stdout, `${fixtures.length} fixture(s).`);
  return EXIT.ok;
}

async function coverageCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure coverage', args, COMMON);
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  const coverage = pressure.suiteCoverage(suite);
  // No list pinned means no debt admitted: every rule must have a fixture.
  const debt = pressure.checkFixtureDebt(coverage, suite.uncovered ?? []);
  // A suite that shrinks fails: a refused or unreadable fixture is coverage that quietly went away.
  const ok = debt.ok && suite.refusals.length === 0;
  if (values.json === true) {
    json(io, { ok, coverage, debt, refusals: suite.refusals, unbound: suite.unbound });
  } else {
    for (const refusal of suite.refusals) writeLine(io.stdout, `refused: ${pressure.formatRefusal(refusal)}`);
    for (const entry of suite.unbound) writeLine(io.stdout, `not counted: ${entry.id}: ${entry.reason}`);
    for (const rule of coverage.rules) {
      writeLine(
        io.stdout,
        `${`${rule.rule} ${rule.name}`.padEnd(14)} ${String(rule.fixtures.length).padStart(3)}  ${rule.fixtures.join(', ') || '(no fixture)'}`,
      );
    }
    writeLine(io.stdout, `uncovered: ${coverage.uncovered.join(', ') || '(none)'}`);
    writeLine(
      io.stdout,
      `per agent: ${Object.entries(coverage.perAgent)
        .map(([agent, count]) => `${agent} ${count}`)
        .join(', ')}`,
    );
    writeLine(
      io.stdout,
      `pressures: ${Object.entries(coverage.pressures)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ')}`,
    );
    for (const line of pressure.formatDebtCheck(debt)) writeLine(io.stdout, line);
    if (suite.refusals.length > 0)
      writeLine(io.stdout, `${suite.refusals.length} refusal(s): a refused fixture covers nothing; run \`holdfast pressure lint\`.`);
  }
  return ok ? EXIT.ok : EXIT.failed;
}

async function promptCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure prompt', args, { ...COMMON, fixture: { type: 'string' }, untold: { type: 'boolean' } });
  if (values.fixture === undefined) throw new InputError('E_ARGS', '--fixture ID is required');
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  const fixture = pressure.fixtureById(suite.fixtures, values.fixture);
  const prose = values.untold === true || suite.rulebook === undefined ? undefined : (await import('@holdfast/core/rules')).renderRulebook(suite.rulebook);
  const prompt = pressure.renderPressurePrompt(
    fixture,
    prose,
    suite.agents.find((agent) => agent.id === fixture.agent),
  );
  if (values.json === true) json(io, prompt);
  else writeLine(io.stdout, pressure.formatPressurePrompt(prompt));
  return EXIT.ok;
}

async function readInputFile(io: CliIo, file: string): Promise<string> {
  if (file === '-') return readAllText(io.stdin);
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new InputError('E_PRESSURE_FILE', `cannot read ${file}`, { cause: error });
  }
}

async function evaluateCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure evaluate', args, {
    ...COMMON,
    fixture: { type: 'string' },
    'response-file': { type: 'string' },
    'no-citation': { type: 'boolean' },
  });
  if (values.fixture === undefined) throw new InputError('E_ARGS', '--fixture ID is required');
  if (values['response-file'] === undefined) throw new InputError('E_ARGS', '--response-file F is required (- for stdin)');
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  const fixture = pressure.fixtureById(suite.fixtures, values.fixture);
  const response = await readInputFile(io, values['response-file']);
  const result = pressure.scorePressureResponse(fixture, response, {
    rule: pressure.suiteRuleOf(suite, fixture),
    requireCitation: values['no-citation'] !== true,
  });
  if (values.json === true) {
    json(io, result);
  } else {
    writeLine(io.stdout, `${result.verdict}: ${result.reason}`);
    writeLine(io.stdout, `expected ${result.expected}; chose ${result.chosen.join(', ') || '(none)'}`);
    if (result.cited.length > 0) writeLine(io.stdout, `cited: ${result.cited.join(', ')}`);
    if (result.missing_citations.length > 0) writeLine(io.stdout, `missing citations: ${result.missing_citations.join(', ')}`);
    for (const excuse of result.rationalizations_repeated) writeLine(io.stdout, `repeats the excuse: "${excuse}"`);
  }
  return result.verdict === 'pass' ? EXIT.ok : EXIT.failed;
}

function printRecords(io: CliIo, pressure: PressureModule, records: readonly PressureRecord[]): void {
  for (const record of records) {
    const where = [record.target, record.variant, `rep ${record.rep}`].filter((part) => part !== undefined).join(' ');
    writeLine(io.stdout, `${record.fixture_id} (${where}): ${record.result.verdict}: ${record.result.reason}`);
  }
  writeLine(io.stdout, '');
  writeLine(io.stdout, 'rule  target  variant  pass rate [95% CI]  verdicts');
  for (const row of pressure.summarizePressureRecords(records)) {
    const verdicts = Object.entries(row.verdicts)
      .map(([verdict, count]) => `${verdict} ${count}`)
      .join(', ');
    writeLine(io.stdout, `${row.rule}  ${row.target ?? '-'}  ${row.variant}  ${formatRate(row.pass)}  ${verdicts}`);
  }
}

async function writeRecords(io: CliIo, pressure: PressureModule, file: string, records: readonly PressureRecord[]): Promise<void> {
  await writeFile(resolve(io.cwd, file), records.map((record) => pressure.formatPressureRecord(record)).join(''), 'utf8');
}

async function reportCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure report', args, {
    ...COMMON,
    responses: { type: 'string' },
    // The published ADR-0024 suite's name for the same flag.
    'responses-file': { type: 'string' },
    out: { type: 'string' },
    'no-citation': { type: 'boolean' },
  });
  const responses = values.responses ?? values['responses-file'];
  if (responses === undefined) throw new InputError('E_ARGS', '--responses FILE.jsonl is required');
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  warnRefused(io, suite.refusals.length);
  const lines = pressure.parsePressureResponses(await readInputFile(io, responses), responses);
  const records = pressure.scoreResponseLines(suite.fixtures, suite.rulebook, lines, {
    requireCitation: values['no-citation'] !== true,
    now: () => new Date(),
    ruleOf: (fixture) => pressure.suiteRuleOf(suite, fixture),
  });
  if (values.out !== undefined) await writeRecords(io, pressure, values.out, records);
  const gate = pressure.pressureGate(records);
  if (values.json === true) {
    json(io, { ...gate, records, summary: pressure.summarizePressureRecords(records) });
  } else {
    printRecords(io, pressure, records);
    writeLine(io.stdout, pressure.formatPressureGate(gate));
  }
  return gate.ok ? EXIT.ok : EXIT.failed;
}

async function compareCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values, positionals } = parseCommandArgs('pressure compare', args, {
    ...COMMON,
    alpha: { type: 'string' },
    'base-target': { type: 'string' },
    'new-target': { type: 'string' },
  });
  const [baseFile, nextFile, extra] = positionals;
  if (baseFile === undefined || nextFile === undefined || extra !== undefined) throw new InputError('E_ARGS', 'takes exactly two results files: BASE NEW');
  const alpha = values.alpha === undefined ? pressure.DEFAULT_ALPHA : Number(values.alpha);
  if (!(alpha > 0 && alpha < 1)) throw new InputError('E_ARGS', `--alpha must be a number between 0 and 1, got "${values.alpha}"`);
  const base = pressure.parsePressureRecords(await readInputFile(io, baseFile), baseFile);
  const next = pressure.parsePressureRecords(await readInputFile(io, nextFile), nextFile);
  const comparison = pressure.comparePressureResults(base, next, {
    alpha,
    ...(values['base-target'] === undefined ? {} : { baseTarget: values['base-target'] }),
    ...(values['new-target'] === undefined ? {} : { newTarget: values['new-target'] }),
  });
  if (values.json === true) {
    json(io, comparison);
  } else {
    for (const row of comparison.rows) {
      if (row.change === 'same' && !row.blocker) continue;
      const where = [row.target, row.variant].filter((part) => part !== undefined).join(' ');
      writeLine(io.stdout, `${row.blocker ? 'BLOCKER ' : ''}${row.fixture_id} (${where}): ${row.change}: ${row.reason}`);
    }
    if (comparison.renamed !== undefined)
      writeLine(io.stdout, `paired by fixture across the target rename ${comparison.renamed.base} → ${comparison.renamed.next}`);
    const unchanged = comparison.rows.filter((row) => row.change === 'same').length;
    writeLine(io.stdout, `${comparison.rows.length} fixture(s) compared, ${unchanged} unchanged, ${comparison.blockers} release blocker(s).`);
  }
  return comparison.blockers > 0 ? EXIT.failed : EXIT.ok;
}

async function docsCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure docs', args, { ...COMMON, out: { type: 'string' } });
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  warnRefused(io, suite.refusals.length);
  const markdown = pressure.renderRationalizationDocs(suite.rulebook, suite.fixtures, {
    rules: suite.rules,
    ruleIdOf: (fixture) => pressure.suiteRuleOf(suite, fixture).id,
  });
  if (values.out === undefined) {
    io.stdout.write(markdown);
  } else {
    await writeFile(resolve(io.cwd, values.out), markdown, 'utf8');
    writeLine(io.stdout, `wrote ${values.out}`);
  }
  return EXIT.ok;
}

async function runCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure run', args, {
    ...COMMON,
    targets: { type: 'string' },
    reps: { type: 'string' },
    untold: { type: 'boolean' },
    out: { type: 'string' },
    fixture: { type: 'string', multiple: true },
    rule: { type: 'string' },
    concurrency: { type: 'string' },
    temperature: { type: 'string' },
    'max-tokens': { type: 'string' },
    'no-citation': { type: 'boolean' },
  });
  if (values.targets === undefined) throw new InputError('E_ARGS', '--targets A,B is required (ids from holdfast.config.yaml)');
  const reps = integerFlag('pressure run', 'reps', values.reps, 1, 1, 1000);
  const concurrency = integerFlag('pressure run', 'concurrency', values.concurrency, 2, 1, 64);
  const maxTokens = integerFlag('pressure run', 'max-tokens', values['max-tokens'], 4_000, 1, 1_000_000);
  const temperature = values.temperature === undefined ? 0.7 : Number(values.temperature);
  if (!(temperature >= 0 && temperature <= 2)) throw new InputError('E_ARGS', `--temperature must be from 0 to 2, got "${values.temperature}"`);

  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  warnRefused(io, suite.refusals.length);
  const fixtures =
    (values.fixture ?? []).length > 0
      ? (values.fixture ?? []).map((id) => pressure.fixtureById(suite.fixtures, id))
      : suite.fixtures.filter((fixture) => values.rule === undefined || pressure.ruleMatches(pressure.suiteRuleOf(suite, fixture), fixture, values.rule));
  if (fixtures.length === 0) throw new InputError('E_ARGS', 'no fixture matches');

  const ids = values.targets
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const { resolveConfiguredTargets } = await import('@holdfast/lab/experiment');
  const { targets } = await resolveConfiguredTargets(ids, io.cwd, io.env);
  const adapters = targets.map((target) =>
    target.harness === undefined
      ? { target: target.info, generate: target.model.generate.bind(target.model) }
      : pressure.createHarnessResponder({ harness: target.harness }),
  );

  const variant = values.untold === true ? 'untold' : 'told';
  const prose = variant === 'told' && suite.rulebook !== undefined ? (await import('@holdfast/core/rules')).renderRulebook(suite.rulebook) : undefined;
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  // Truncate first, then append each record as it lands: a crash keeps every finished reply.
  if (out !== undefined) await writeFile(out, '', 'utf8');
  const records = await pressure.runPressureLive({
    fixtures,
    rulebook: suite.rulebook,
    ruleOf: (fixture) => pressure.suiteRuleOf(suite, fixture),
    targets: adapters,
    // With no rulebook the told prose is the agent file alone (a published suite's mandate lives there).
    variant: prose === undefined ? 'untold' : variant,
    rulebookProse: prose,
    agents: suite.agents,
    reps,
    requireCitation: values['no-citation'] !== true,
    maxTokens,
    temperature,
    concurrency,
    now: () => new Date(),
    onRecord: async (record) => {
      if (out !== undefined) await appendFile(out, pressure.formatPressureRecord(record), 'utf8');
      if (values.json !== true) writeLine(io.stderr, `${record.fixture_id} ${record.target ?? ''} rep ${record.rep}: ${record.result.verdict}`);
    },
  });
  const gate = pressure.pressureGate(records);
  if (values.json === true) {
    json(io, { ...gate, records, summary: pressure.summarizePressureRecords(records) });
  } else {
    printRecords(io, pressure, records);
    writeLine(io.stdout, pressure.formatPressureGate(gate));
  }
  return gate.ok ? EXIT.ok : EXIT.failed;
}

async function newCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure new', args, {
    ...COMMON,
    rule: { type: 'string' },
    slug: { type: 'string' },
    agent: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
  });
  if (values.rule === undefined) throw new InputError('E_ARGS', '--rule ID is required: the id (or number) of the rule the fixture puts under pressure');
  const options = suiteOptions(io, pressure, values);
  const { loadRulebook } = await import('@holdfast/core/rules');
  const rulebook = options.rulebookFile === undefined ? undefined : await loadRulebook(options.rulebookFile);
  const number = /^(?:rule\s*)?(\d+)$/i.exec(values.rule.trim());
  const ref: string | number = number === null ? values.rule.trim() : Number(number[1]);
  const rules = rulebook === undefined ? [] : pressure.pressureRules(rulebook);
  const found = pressure.findRule(rules, ref);
  if (rulebook !== undefined && found === undefined && typeof ref === 'string') {
    throw new InputError('E_ARGS', `the rulebook has no rule "${ref}" (it has ${rules.map((rule) => rule.id).join(', ') || 'none'})`);
  }
  const rule = found ?? { id: pressure.formatRuleRef(ref), name: pressure.formatRuleRef(ref), number: typeof ref === 'number' ? ref : undefined, prose: '' };
  const id = pressure.skeletonId(rule, values.slug ?? 'NEW');
  const skeleton = pressure.fixtureSkeleton({
    rule,
    ref: found === undefined || typeof ref === 'number' ? ref : found.id,
    id,
    ...(values.agent === undefined ? {} : { agent: values.agent }),
  });
  const file = values.out === undefined ? resolve(options.dir, `${id.toLowerCase()}.json`) : resolve(io.cwd, values.out);
  const { mkdir } = await import('node:fs/promises');
  await mkdir((await import('node:path')).dirname(file), { recursive: true });
  try {
    await writeFile(file, `${JSON.stringify(skeleton, null, 2)}\n`, { encoding: 'utf8', flag: values.force === true ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new InputError('E_ARGS', `${file} exists; pass --force to overwrite it, or --slug to name another`);
    throw error;
  }
  writeLine(
    io.stdout,
    `wrote ${file}: a skeleton for ${rule.id}${rule.name === rule.id ? '' : ` ${rule.name}`}. Write every <fill in: …>; \`holdfast pressure lint\` refuses it until then.`,
  );
  return EXIT.ok;
}
