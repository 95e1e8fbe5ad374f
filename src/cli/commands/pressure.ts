import { readFile, writeFile, appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../../contract/index.js';
import type { PressureRecord, Rate } from '../../contract/index.js';
import { integerFlag, parseCommandArgs } from '../args.js';
import { EXIT, readAllText, withCommandPrefix, writeLine } from '../io.js';
import type { CliIo } from '../io.js';

type PressureModule = typeof import('../../pressure/index.js');

const USAGE = `Usage: holdfast pressure <subcommand> [options]

Pressure fixtures: does a rule bind when holding it is expensive?

Subcommands:
  lint [DIR] [--json]                          validate fixtures (exit 1 on any refusal)
  list [--rule R] [--agent A] [--json]         list fixtures
  coverage [--json]                            rules with and without fixtures; checks uncovered.json (exit 1 on drift)
  prompt --fixture ID [--untold]               print the prompt a model sees
  evaluate --fixture ID --response-file F [--no-citation] [--json]
                                               score one reply (exit 0 pass, 1 fail); F may be - for stdin
  report --responses FILE.jsonl [--no-citation] [--out FILE] [--json]
                                               score recorded replies; --out writes a results file
  run --targets A,B [--reps N] [--untold] [--fixture ID]... [--out FILE] [--no-citation]
                                               ask live models, a fresh context per fixture
  compare BASE NEW [--alpha P] [--json]        verdict flips between two results files (exit 1 on pass→fail)
  docs [--out FILE]                            the rationalisation tables per rule, as markdown

Common options:
  --fixtures DIR     fixtures folder (default: fixtures/pressure, else the shipped one)
  --rulebook FILE    rulebook (default: the shipped rulebooks/default.yaml)
  -h, --help         this help

Exit codes: 0 ok, 1 judged failure, 2 bad input, 3 internal error.`;

const COMMON = {
  fixtures: { type: 'string' },
  rulebook: { type: 'string' },
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
    writeLine(io.stdout, USAGE);
    return EXIT.ok;
  }
  try {
    const pressure = await import('../../pressure/index.js');
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
};

function suiteOptions(io: CliIo, pressure: PressureModule, values: { fixtures?: string | undefined; rulebook?: string | undefined }, dir?: string) {
  return {
    dir: dir !== undefined ? resolve(io.cwd, dir) : values.fixtures !== undefined ? resolve(io.cwd, values.fixtures) : pressure.defaultFixturesDir(io.cwd),
    ...(values.rulebook === undefined ? {} : { rulebookFile: resolve(io.cwd, values.rulebook) }),
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
    json(io, { ok: suite.refusals.length === 0, fixtures: suite.fixtures.map((fixture) => fixture.id), refusals: suite.refusals });
  } else {
    for (const refusal of suite.refusals) writeLine(io.stdout, pressure.formatRefusal(refusal));
    const refusedFiles = new Set(suite.refusals.map((refusal) => refusal.file)).size;
    writeLine(io.stdout, `${suite.fixtures.length} fixture(s) ok, ${suite.refusals.length} refusal(s) in ${refusedFiles} file(s).`);
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
    (fixture) => (values.rule === undefined || fixture.rule === values.rule) && (values.agent === undefined || fixture.agent === values.agent),
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
  warnRefused(io, suite.refusals.length);
  const coverage = pressure.pressureCoverage(suite.rulebook, suite.fixtures);
  // No list pinned means no debt admitted: every rule must have a fixture.
  const debt = pressure.checkFixtureDebt(coverage, suite.uncovered ?? []);
  if (values.json === true) {
    json(io, { coverage, debt });
  } else {
    for (const rule of coverage.rules) {
      writeLine(io.stdout, `${`${rule.rule} ${rule.name}`.padEnd(14)} ${String(rule.fixtures.length).padStart(3)}  ${rule.fixtures.join(', ') || '(no fixture)'}`);
    }
    writeLine(io.stdout, `uncovered: ${coverage.uncovered.join(', ') || '(none)'}`);
    writeLine(io.stdout, `per agent: ${Object.entries(coverage.perAgent).map(([agent, count]) => `${agent} ${count}`).join(', ')}`);
    writeLine(io.stdout, `pressures: ${Object.entries(coverage.pressures).map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
    for (const line of pressure.formatDebtCheck(debt)) writeLine(io.stdout, line);
  }
  return debt.ok ? EXIT.ok : EXIT.failed;
}

async function promptCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure prompt', args, { ...COMMON, fixture: { type: 'string' }, untold: { type: 'boolean' } });
  if (values.fixture === undefined) throw new InputError('E_ARGS', '--fixture ID is required');
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  const fixture = pressure.fixtureById(suite.fixtures, values.fixture);
  const prose = values.untold === true ? undefined : (await import('../../rules/index.js')).renderRulebook(suite.rulebook);
  const prompt = pressure.renderPressurePrompt(fixture, prose);
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
    rule: pressure.ruleOf(suite.rulebook, fixture),
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

function formatRate(rate: Rate): string {
  if (rate.rate === null || rate.low === null || rate.high === null) return `${rate.count}/${rate.n}`;
  const percent = (value: number): string => `${Math.round(value * 100)}%`;
  return `${rate.count}/${rate.n} ${percent(rate.rate)} [${percent(rate.low)}–${percent(rate.high)}]`;
}

function printRecords(io: CliIo, pressure: PressureModule, records: readonly PressureRecord[]): void {
  for (const record of records) {
    const where = [record.target, record.variant, `rep ${record.rep}`].filter((part) => part !== undefined).join(' ');
    writeLine(io.stdout, `${record.fixture_id} (${where}): ${record.result.verdict}: ${record.result.reason}`);
  }
  writeLine(io.stdout, '');
  writeLine(io.stdout, 'rule  target  variant  pass rate [95% CI]  verdicts');
  for (const row of pressure.summarizePressureRecords(records)) {
    const verdicts = Object.entries(row.verdicts).map(([verdict, count]) => `${verdict} ${count}`).join(', ');
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
    out: { type: 'string' },
    'no-citation': { type: 'boolean' },
  });
  if (values.responses === undefined) throw new InputError('E_ARGS', '--responses FILE.jsonl is required');
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  warnRefused(io, suite.refusals.length);
  const lines = pressure.parsePressureResponses(await readInputFile(io, values.responses), values.responses);
  const records = pressure.scoreResponseLines(suite.fixtures, suite.rulebook, lines, {
    requireCitation: values['no-citation'] !== true,
    now: () => new Date(),
  });
  if (values.out !== undefined) await writeRecords(io, pressure, values.out, records);
  if (values.json === true) json(io, { records, summary: pressure.summarizePressureRecords(records) });
  else printRecords(io, pressure, records);
  return EXIT.ok;
}

async function compareCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values, positionals } = parseCommandArgs('pressure compare', args, { ...COMMON, alpha: { type: 'string' } });
  const [baseFile, nextFile, extra] = positionals;
  if (baseFile === undefined || nextFile === undefined || extra !== undefined) throw new InputError('E_ARGS', 'takes exactly two results files: BASE NEW');
  const alpha = values.alpha === undefined ? pressure.DEFAULT_ALPHA : Number(values.alpha);
  if (!(alpha > 0 && alpha < 1)) throw new InputError('E_ARGS', `--alpha must be a number between 0 and 1, got "${values.alpha}"`);
  const base = pressure.parsePressureRecords(await readInputFile(io, baseFile), baseFile);
  const next = pressure.parsePressureRecords(await readInputFile(io, nextFile), nextFile);
  const comparison = pressure.comparePressureResults(base, next, alpha);
  if (values.json === true) {
    json(io, comparison);
  } else {
    for (const row of comparison.rows) {
      if (row.change === 'same' && !row.blocker) continue;
      const where = [row.target, row.variant].filter((part) => part !== undefined).join(' ');
      writeLine(io.stdout, `${row.blocker ? 'BLOCKER ' : ''}${row.fixture_id} (${where}): ${row.change}: ${row.reason}`);
    }
    const unchanged = comparison.rows.filter((row) => row.change === 'same').length;
    writeLine(io.stdout, `${comparison.rows.length} fixture(s) compared, ${unchanged} unchanged, ${comparison.blockers} release blocker(s).`);
  }
  return comparison.blockers > 0 ? EXIT.failed : EXIT.ok;
}

async function docsCommand(args: string[], io: CliIo, pressure: PressureModule): Promise<number> {
  const { values } = parseCommandArgs('pressure docs', args, { ...COMMON, out: { type: 'string' } });
  const suite = await pressure.loadPressureSuite(suiteOptions(io, pressure, values));
  warnRefused(io, suite.refusals.length);
  const markdown = pressure.renderRationalizationDocs(suite.rulebook, suite.fixtures);
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
  const fixtures = (values.fixture ?? []).length > 0 ? (values.fixture ?? []).map((id) => pressure.fixtureById(suite.fixtures, id)) : suite.fixtures.filter((fixture) => values.rule === undefined || fixture.rule === values.rule);
  if (fixtures.length === 0) throw new InputError('E_ARGS', 'no fixture matches');

  const models = await import('../../models/index.js');
  const [config, env] = await Promise.all([models.loadTargetsConfig(io.cwd), models.loadDotEnv(io.cwd, io.env)]);
  const adapters = values.targets.split(',').map((id) => id.trim()).filter((id) => id !== '').map((id) => {
    const target = config.targets.find((candidate) => candidate.id === id);
    if (target === undefined) {
      throw new InputError('E_ARGS', `no target "${id}" in ${config.source}; known: ${config.targets.map((candidate) => candidate.id).join(', ')}`);
    }
    return models.createAdapter(target, env, { cwd: io.cwd });
  });

  const variant = values.untold === true ? 'untold' : 'told';
  const prose = variant === 'told' ? (await import('../../rules/index.js')).renderRulebook(suite.rulebook) : undefined;
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  // Truncate first, then append each record as it lands: a crash keeps every finished reply.
  if (out !== undefined) await writeFile(out, '', 'utf8');
  const records = await pressure.runPressureLive({
    fixtures,
    rulebook: suite.rulebook,
    targets: adapters,
    variant,
    rulebookProse: prose,
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
  if (values.json === true) json(io, { records, summary: pressure.summarizePressureRecords(records) });
  else printRecords(io, pressure, records);
  return records.every((record) => record.result.verdict === 'pass') ? EXIT.ok : EXIT.failed;
}
