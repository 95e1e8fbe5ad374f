import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { CHECK_KINDS } from '@holdfast/core/contract';
import { projectUntrusted, readCodexView } from './codex-hooks.js';
import type { CodexView } from './codex-hooks.js';
import { gitHookChecks } from './doctor-git-hooks.js';
import { holdfastBlockOf, REFERENCE_TRANSACTION } from './reference-transaction-hook.js';
import { HOOK_LOCATION_FILE, isHoldfastCommand, readInstalledHook } from './hook-command.js';
import { findHookInstall } from './hook-location.js';
import type { HookInstall } from './hook-location.js';
import type { InstalledHook } from './hook-command.js';
import {
  AGENT_EVENTS,
  BLOCK_PATTERN,
  CONFIG_FILES,
  TIMEOUT_UNIT_MS,
  gitHooksDirectory,
  isGitRepository,
  isHoldfastExcluded,
  readJsonConfig,
} from './install.js';
import type { AgentGate, SettingsAgent } from './install.js';
import { OPENCODE_PLUGIN_FILE, hasOpenCodePlugin, readOpenCodePluginCommand } from './opencode-plugin.js';
import { HOOK_TIMEOUT_SECONDS } from './hook-command.js';
import { findProjectRulebook } from '../decide/index.js';
import { HOOK_ENTRY_VARIABLE, containmentChecks } from '../exec/index.js';
import { userGitOutput } from '../io/index.js';

/** One thing doctor checked: what, whether it holds, and what to do when it does not. */
export interface DoctorCheck {
  readonly area: AgentGate | 'git' | 'rulebook' | 'project' | 'containment';
  readonly ok: boolean;
  readonly what: string;
  readonly fix?: string;
  /** Worth knowing, not a failure (a rule the live gate does not enforce). */
  readonly advisory?: boolean;
  /** Nothing is broken, but the gate does not hold yet (every rule warns, or the rulebook was never tried): never "All good". */
  readonly pending?: boolean;
}

export interface DoctorOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  /** The codex binary, when one was found: Codex itself says whether it trusts and runs the hook. */
  readonly codex: string | undefined;
}

/** Check kinds the live gate judges on every call: every deterministic kind; any other (a model-judged rule) is advisory there. */
const ENFORCED_KINDS: ReadonlySet<string> = new Set(CHECK_KINDS);

const REINSTALL = (agent: string) => `run \`holdfast install ${agent}\` from the project root`;

/** The install command to propose: always with the project's own rulebook, never the shipped demo's. */
function installFix(agent: string, options: DoctorOptions): string {
  const found = findProjectRulebook(options.root, options.env);
  return found.state === 'found'
    ? `run \`holdfast install ${agent} --rulebook ${found.shown}\` from the project root`
    : `run \`holdfast init\` (it drafts holdfast/rulebook.yaml from your AGENTS.md), then \`holdfast install ${agent} --rulebook holdfast/rulebook.yaml\``;
}

function gitConfig(root: string, key: string): string {
  return userGitOutput(['config', key], root)?.trim() ?? '';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface Registered {
  readonly event: string;
  readonly matcher: string | undefined;
  readonly command: string;
  readonly timeout: unknown;
}

/** Our handlers in an agent's config, by event. */
function registered(config: Record<string, unknown>): Registered[] {
  const hooks = config.hooks;
  if (typeof hooks !== 'object' || hooks === null) return [];
  const found: Registered[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups as { matcher?: unknown; hooks?: unknown; bash?: unknown; command?: unknown; timeoutSec?: unknown }[]) {
      // Copilot CLI's flat entry: the command in `bash`, the timeout in `timeoutSec`.
      const flat = group?.bash ?? (Array.isArray(group?.hooks) ? undefined : group?.command);
      if (isHoldfastCommand(flat)) found.push({ event, matcher: undefined, command: String(flat), timeout: group.timeoutSec });
      if (!Array.isArray(group?.hooks)) continue;
      for (const hook of group.hooks as { command?: unknown; timeout?: unknown }[]) {
        if (isHoldfastCommand(hook?.command)) {
          found.push({ event, matcher: typeof group.matcher === 'string' ? group.matcher : undefined, command: String(hook.command), timeout: hook.timeout });
        }
      }
    }
  }
  return found;
}

function resolvesChecks(area: DoctorCheck['area'], hook: { readonly node: string; readonly entry: string }, agent: string): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const nodeOk = executable(hook.node);
  checks.push({
    area,
    ok: nodeOk,
    what: `node ${hook.node} ${nodeOk ? 'is there' : 'is missing or not executable'}`,
    ...(nodeOk ? {} : { fix: `${REINSTALL(agent)} with the node you use now` }),
  });
  const entryOk = existsSync(hook.entry);
  checks.push({
    area,
    ok: entryOk,
    what: `hook entry ${hook.entry} ${entryOk ? 'is there' : 'is missing'}`,
    ...(entryOk ? {} : { fix: `holdfast moved or was removed (or not built: \`npm run build\`); ${REINSTALL(agent)}` }),
  });
  return checks;
}

const SOURCE_NAMES: Record<HookInstall['source'], string> = {
  environment: `${HOOK_ENTRY_VARIABLE} in the environment`,
  clone: `this clone's ${HOOK_LOCATION_FILE}`,
  project: "the project's node_modules",
};

/** Where the installed agent command will find holdfast here (the command names no path; findHookInstall looks as it does). */
function findsChecks(agent: AgentGate, hook: InstalledHook, options: DoctorOptions): DoctorCheck[] {
  if (hook.node !== undefined && hook.entry !== undefined) {
    return [
      ...resolvesChecks(agent, { node: hook.node, entry: hook.entry }, agent),
      {
        area: agent,
        ok: false,
        what: `the hook command names paths of the machine that installed it (${hook.entry}): committed, it refuses every call in a colleague's clone`,
        fix: `${REINSTALL(agent)} (the command it writes now finds holdfast from the project)`,
      },
    ];
  }
  const found = findHookInstall(options.root, options.env);
  const from = SOURCE_NAMES[found.source];
  const fix = `${found.source === 'clone' ? `${REINSTALL(agent)} (holdfast moved or was removed)` : `install holdfast in the project (\`npm install --save-dev holdfast\`), or ${REINSTALL(agent)} with a holdfast installed elsewhere`}`;
  return [
    found.node !== undefined
      ? { area: agent, ok: true, what: `the hook runs node ${found.node}` }
      : found.source === 'clone'
        ? { area: agent, ok: false, what: `the node ${HOOK_LOCATION_FILE} names is missing`, fix: `${REINSTALL(agent)} with the node you use now` }
        : { area: agent, ok: false, what: 'the hook finds no node on PATH', fix: 'put node on the PATH the agent is started with' },
    existsSync(found.entry)
      ? { area: agent, ok: true, what: `the hook finds holdfast from ${from}: ${found.entry}` }
      : { area: agent, ok: false, what: `the hook finds no holdfast: ${found.entry} (from ${from}) is missing, so it refuses every call`, fix },
  ];
}

/** Starts the installed command once on an empty event: it must answer (0 or 2), not fail to start. */
function startsCheck(agent: AgentGate, command: string, root: string): DoctorCheck {
  const result = spawnSync('/bin/sh', ['-c', command], { cwd: root, input: '', encoding: 'utf8', timeout: 30_000 });
  const answered = (result.status === 0 || result.status === 2) && !/holdfast gate: (cannot run|the hook stopped)/.test(result.stderr);
  if (answered) return { area: agent, ok: true, what: `the hook command starts and answers (exit ${String(result.status)})` };
  const said = (result.stderr.trim().split('\n')[0] ?? '').slice(0, 200);
  return {
    area: agent,
    ok: false,
    what: `the hook command does not start: exit ${String(result.status)}${said === '' ? '' : `, "${said}"`}`,
    fix: REINSTALL(agent),
  };
}

function agentChecks(agent: SettingsAgent, options: DoctorOptions): { checks: DoctorCheck[]; hook: InstalledHook | undefined } {
  const file = CONFIG_FILES[agent];
  let config: Record<string, unknown> | undefined;
  try {
    config = readJsonConfig(join(options.root, file));
  } catch (error) {
    return {
      checks: [
        {
          area: agent,
          ok: false,
          what: `${file} does not parse: ${error instanceof Error ? error.message : String(error)}`,
          fix: `fix the JSON by hand, then ${REINSTALL(agent)}`,
        },
      ],
      hook: undefined,
    };
  }
  const checks: DoctorCheck[] = [{ area: agent, ok: true, what: `${file} parses` }];
  const ours = registered(config ?? {});
  for (const { event, matcher, covers } of AGENT_EVENTS[agent]) {
    const entry = ours.find((each) => each.event === event && each.matcher === matcher);
    const label = matcher === undefined ? event : `${event} (${covers ?? matcher})`;
    checks.push(
      entry === undefined
        ? { area: agent, ok: false, what: `no holdfast hook for ${label}`, fix: REINSTALL(agent) }
        : { area: agent, ok: true, what: `hook registered for ${label}` },
    );
  }
  const first = ours[0];
  const hook = first === undefined ? undefined : readInstalledHook(first.command);
  if (first === undefined) return { checks, hook };
  if (hook === undefined) {
    checks.push({
      area: agent,
      ok: false,
      what: 'the hook command is from an older holdfast: it does not fail closed and has no deadline',
      fix: REINSTALL(agent),
    });
    return { checks, hook };
  }
  checks.push(...findsChecks(agent, hook, options));
  if (hook.observe) {
    checks.push({
      area: agent,
      ok: false,
      what: 'the hook is installed in observe mode: it records every call but blocks none',
      fix: `${REINSTALL(agent)} without --observe to enforce the rulebook`,
    });
  }
  if (ours.some((each) => each.command !== first.command)) {
    checks.push({ area: agent, ok: false, what: 'the events run different holdfast commands', fix: REINSTALL(agent) });
  }
  const timeouts = ours.map((each) => each.timeout);
  const timeoutSeconds = timeouts.every((each) => typeof each === 'number') ? (Math.min(...(timeouts as number[])) * TIMEOUT_UNIT_MS[agent]) / 1000 : undefined;
  const deadline = hook.deadlineMs;
  if (timeoutSeconds === undefined || deadline === undefined) {
    checks.push({ area: agent, ok: false, what: 'the hook has no timeout or no internal deadline', fix: REINSTALL(agent) });
  } else if (deadline >= timeoutSeconds * 1000 * 0.9) {
    checks.push({
      area: agent,
      ok: false,
      what: `the internal deadline (${deadline} ms) is not well inside the hook timeout (${timeoutSeconds} s): a slow decision would time out and pass`,
      fix: REINSTALL(agent),
    });
  } else {
    checks.push({ area: agent, ok: true, what: `timeout ${timeoutSeconds} s, internal deadline ${deadline} ms (a slower decision is a deny)` });
  }
  if (checks.every((check) => check.ok)) checks.push(startsCheck(agent, first.command, options.root));
  return { checks, hook };
}

/** OpenCode's gate is holdfast's plugin file: its command is read out of it and checked like a settings file's. */
function openCodeChecks(options: DoctorOptions): { checks: DoctorCheck[]; hook: InstalledHook | undefined } {
  const agent = 'opencode';
  const command = readOpenCodePluginCommand(readFileSync(join(options.root, OPENCODE_PLUGIN_FILE), 'utf8'));
  const hook = command === undefined ? undefined : readInstalledHook(command);
  if (command === undefined || hook === undefined) {
    return {
      checks: [
        { area: agent, ok: false, what: `${OPENCODE_PLUGIN_FILE} is from another holdfast version: its hook command cannot be read`, fix: REINSTALL(agent) },
      ],
      hook: undefined,
    };
  }
  const checks: DoctorCheck[] = [
    { area: agent, ok: true, what: `${OPENCODE_PLUGIN_FILE} sends tool.execute.before, tool.execute.after and session.idle to the hook` },
    ...findsChecks(agent, hook, options),
  ];
  if (hook.observe) {
    checks.push({
      area: agent,
      ok: false,
      what: 'the hook is installed in observe mode: it records every call but blocks none',
      fix: `${REINSTALL(agent)} without --observe to enforce the rulebook`,
    });
  }
  const deadline = hook.deadlineMs;
  if (deadline === undefined || deadline >= HOOK_TIMEOUT_SECONDS * 1000 * 0.9) {
    checks.push({ area: agent, ok: false, what: "the hook has no internal deadline well inside the plugin's timeout", fix: REINSTALL(agent) });
  } else {
    checks.push({ area: agent, ok: true, what: `timeout ${HOOK_TIMEOUT_SECONDS} s, internal deadline ${deadline} ms (a slower decision is a deny)` });
  }
  if (checks.every((check) => check.ok)) checks.push(startsCheck(agent, command, options.root));
  return { checks, hook };
}

async function codexTrustChecks(options: DoctorOptions): Promise<DoctorCheck[]> {
  if (options.codex === undefined) {
    return [
      {
        area: 'codex',
        ok: false,
        what: 'cannot check whether Codex trusts and runs the hook: no codex binary found',
        fix: 'put codex on PATH or pass --codex PATH',
      },
    ];
  }
  let view: CodexView;
  try {
    view = await readCodexView(options.codex, options.root, options.env);
  } catch (error) {
    return [
      { area: 'codex', ok: false, what: error instanceof Error ? error.message : String(error), fix: 'check that `codex --version` runs (0.124 or later)' },
    ];
  }
  const checks: DoctorCheck[] = [];
  if (view.warnings.length > 0) {
    checks.push({ area: 'codex', ok: false, what: `Codex warns about the hooks config: ${view.warnings.join('; ')}`, fix: REINSTALL('codex') });
  }
  if (view.hooksFeature === false) {
    checks.push({
      area: 'codex',
      ok: false,
      what: 'Codex has hooks switched off (feature `hooks` is false)',
      fix: 'remove `hooks = false` (or the old `codex_hooks = false`) under [features] in ~/.codex/config.toml, or set `hooks = true`',
    });
  } else {
    checks.push({ area: 'codex', ok: true, what: `Codex has hooks on (feature \`hooks\`${view.hooksFeature === undefined ? ', by default' : ''})` });
  }
  if (view.hooks.length === 0) {
    const why = projectUntrusted(view)
      ? 'this project folder is not trusted in Codex, so it ignores .codex/'
      : "Codex does not see holdfast's hooks in .codex/hooks.json";
    checks.push({
      area: 'codex',
      ok: false,
      what: `Codex will not run the hook: ${why}`,
      fix: `start \`codex\` in ${options.root} and trust the folder (or add [projects."${options.root}"] trust_level = "trusted" to ~/.codex/config.toml), then \`holdfast install codex --trust\``,
    });
    return checks;
  }
  const untrusted = view.hooks.filter((hook) => hook.trustStatus !== 'trusted');
  const disabled = view.hooks.filter((hook) => !hook.enabled);
  if (untrusted.length > 0) {
    const list = untrusted.map((hook) => `${hook.eventName} ${hook.trustStatus}`).join(', ');
    checks.push({
      area: 'codex',
      ok: false,
      what: `Codex does not trust the hook (${list}), so it skips it silently`,
      fix: 'run `holdfast install codex --trust`, or review the hooks in Codex (/hooks) and trust them',
    });
  } else {
    checks.push({ area: 'codex', ok: true, what: `Codex trusts the hook for ${view.hooks.map((hook) => hook.eventName).join(', ')}` });
  }
  if (disabled.length > 0) {
    checks.push({
      area: 'codex',
      ok: false,
      what: `the hook is disabled in Codex for ${disabled.map((hook) => hook.eventName).join(', ')}`,
      fix: 'enable it in Codex (/hooks) or remove `enabled = false` under its [hooks.state] entry in ~/.codex/config.toml',
    });
  }
  return checks;
}

function gitChecks(options: DoctorOptions): { checks: DoctorCheck[]; hook: InstalledHook | undefined } {
  const checks: DoctorCheck[] = [];
  const hooksDirectory = gitHooksDirectory(options.root);
  const path = join(hooksDirectory, 'pre-commit');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const block = BLOCK_PATTERN.exec(text)?.[0];
  if (block === undefined) {
    let shadowed = '';
    try {
      const hooksPath = userGitOutput(['config', 'core.hooksPath'], options.root)?.trim() ?? '';
      const commonDir = userGitOutput(['rev-parse', '--git-common-dir'], options.root)?.trim();
      if (commonDir === undefined) throw new Error('not a git repository');
      const standard = join(isAbsolute(commonDir) ? commonDir : resolve(options.root, commonDir), 'hooks', 'pre-commit');
      if (hooksPath !== '' && existsSync(standard) && BLOCK_PATTERN.test(readFileSync(standard, 'utf8')))
        shadowed = ` (core.hooksPath=${hooksPath} makes git skip the gate in ${standard})`;
    } catch {
      // core.hooksPath unset: nothing shadows the standard folder
    }
    const hooksPath = gitConfig(options.root, 'core.hooksPath');
    // A hook manager that regenerates its hook files (husky, lefthook) drops the pre-commit block and
    // leaves the reference-transaction hook it does not manage: that one still judges every commit.
    const references = join(hooksDirectory, REFERENCE_TRANSACTION);
    const referencesBlock = existsSync(references) ? holdfastBlockOf(readFileSync(references, 'utf8')) : undefined;
    const stillHolds =
      referencesBlock === undefined
        ? ''
        : `; the reference-transaction hook still holds: it refuses any commit that breaks a content rule, and a commit an agent's tool call makes that breaks an order or requires rule, but a refused \`git commit\` now ends after the commit message is written`;
    checks.push({
      area: 'git',
      ok: false,
      what: `the pre-commit hook git runs (${path}) has no holdfast gate${shadowed}${hooksPath !== '' && shadowed === '' ? ` (git runs hooks from ${hooksPath}: core.hooksPath, as husky and other hook managers set it)` : ''}${stillHolds}`,
      fix: `${installFix('git', options)} (it writes where git looks, core.hooksPath included)`,
    });
    return { checks, hook: referencesBlock === undefined ? undefined : readInstalledHook(referencesBlock.replace(/\n/g, ' ')) };
  }
  checks.push({ area: 'git', ok: true, what: `${path} holds the holdfast gate` });
  const runs = executable(path);
  checks.push(
    runs
      ? { area: 'git', ok: true, what: 'the pre-commit hook is executable' }
      : { area: 'git', ok: false, what: 'the pre-commit hook is not executable, so git skips it', fix: `chmod +x ${path}` },
  );
  const hook = readInstalledHook(block);
  if (hook === undefined) {
    checks.push({
      area: 'git',
      ok: false,
      what: 'the pre-commit block is from an older holdfast: it does not say what is missing when holdfast is gone',
      fix: REINSTALL('git'),
    });
  } else if (hook.node !== undefined && hook.entry !== undefined) {
    checks.push(...resolvesChecks('git', { node: hook.node, entry: hook.entry }, 'git'));
  }
  return { checks, hook };
}

function named(rules: readonly { readonly id: string; readonly name: string }[]): string {
  return rules.map((rule) => `${rule.id} ${rule.name}`).join(', ');
}

async function rulebookChecks(hooks: readonly InstalledHook[], options: DoctorOptions): Promise<DoctorCheck[]> {
  const root = options.root;
  const files = [...new Set(hooks.map((hook) => hook.rulebook))];
  const checks: DoctorCheck[] = [];
  const { loadRulebook } = await import('@holdfast/core/rules/load-rulebook');
  const { readRuleTrials, trialOf } = await import('@holdfast/core/rules');
  for (const file of files.length === 0 ? [undefined] : files) {
    let path = file === undefined || isAbsolute(file) ? file : resolve(root, file);
    let shown = file;
    if (file === undefined) {
      // A hook without --rulebook reads the project's rulebook, and refuses every call when there is none.
      const found = findProjectRulebook(root, options.env);
      if (found.state === 'missing') {
        checks.push({
          area: 'rulebook',
          ok: false,
          what: `the hook names no rulebook and ${found.message}: the hook refuses every call`,
          fix: 'run `holdfast init` (it drafts holdfast/rulebook.yaml from your AGENTS.md), or reinstall with --rulebook FILE',
        });
        continue;
      }
      path = found.path;
      shown = found.shown;
    }
    try {
      const rulebook = await loadRulebook(path);
      const enforced = rulebook.rules.filter((rule) => ENFORCED_KINDS.has(rule.check.kind));
      const prose = rulebook.proseRules ?? [];
      const blocking = enforced.filter((rule) => (rule.enforcement ?? 'block') === 'block');
      const warning = enforced.filter((rule) => rule.enforcement === 'warn');
      checks.push({
        area: 'rulebook',
        ok: true,
        what: `${shown ?? path ?? 'the rulebook'} loads: ${blocking.length} block${blocking.length > 0 ? ` (${named(blocking)})` : ''}, ${warning.length} warn${warning.length > 0 ? ` (${named(warning)})` : ''}, ${prose.length} prose only${prose.length > 0 ? ` (${named(prose)})` : ''}`,
      });
      // A gate that only warns, or whose rules were never tried on the team's history, is not yet holding.
      if (enforced.length > 0 && blocking.length === 0)
        checks.push({
          area: 'rulebook',
          ok: true,
          pending: true,
          what: `nothing blocks yet: every checked rule is at warn (the gate lets the call through, tells the agent and records it)`,
          fix: 'run `holdfast rulebook try`, then `holdfast rulebook promote ID` for each rule it shows quiet on your history',
        });
      // The project's own rulebook is tried on the project's history; one from elsewhere (a shipped demo) has no such record.
      const own = path !== undefined && !relative(root, path).startsWith('..') && !isAbsolute(relative(root, path));
      const trials = own && path !== undefined ? readRuleTrials(path) : undefined;
      const untried = own ? enforced.filter((rule) => trialOf(trials, rule) === undefined) : [];
      if (untried.length > 0)
        checks.push({
          area: 'rulebook',
          ok: true,
          pending: true,
          what: `${untried.length === enforced.length ? 'the rulebook was never tried' : `${named(untried)} ${untried.length === 1 ? 'was' : 'were'} never tried (or changed since)`} on this repository's history: nobody knows yet whether ${untried.length === 1 ? 'it refuses' : 'they refuse'} the team's own work`,
          fix: 'run `holdfast rulebook try` (it keeps what it found beside the rulebook)',
        });
      if (enforced.length === 0)
        checks.push({
          area: 'rulebook',
          ok: false,
          what: `${shown ?? path ?? 'the rulebook'} enforces nothing: none of its ${rulebook.rules.length + prose.length + (rulebook.judgeRules ?? []).length} rules has a check the gate runs, so the gate holds no rule`,
          fix: 'give at least one rule a check (the table at the end of a drafted rulebook says why each rule is prose only), then run doctor again',
        });
      if (prose.length > 0)
        checks.push({
          area: 'rulebook',
          ok: true,
          advisory: true,
          what: `${prose.length} prose-only rule${prose.length === 1 ? ' is' : 's are'} shown to the agent and never checked: ${named(prose)}`,
        });
      for (const rule of rulebook.rules) {
        if (!ENFORCED_KINDS.has(rule.check.kind)) {
          checks.push({
            area: 'rulebook',
            ok: true,
            advisory: true,
            what: `${rule.id} ${rule.name} (${rule.check.kind}) is advisory only: the live gate does not enforce it`,
          });
        }
      }
      for (const rule of rulebook.judgeRules ?? []) {
        checks.push({
          area: 'rulebook',
          ok: true,
          advisory: true,
          what: `${rule.id} ${rule.name} (judge) is advisory only: a judge model grades it after a run, the live gate never blocks on it`,
        });
      }
    } catch (error) {
      checks.push({
        area: 'rulebook',
        ok: false,
        what: error instanceof Error ? error.message : String(error),
        fix: 'fix the rulebook (every hook call is refused until it loads)',
      });
    }
  }
  return checks;
}

/** Every check for the gates installed in the project; none installed is itself a failure. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const hooks: InstalledHook[] = [];
  const agents: AgentGate[] = (Object.keys(CONFIG_FILES) as SettingsAgent[]).filter((agent) => {
    try {
      return registered(readJsonConfig(join(options.root, CONFIG_FILES[agent])) ?? {}).length > 0;
    } catch {
      return true; // a config that does not parse is reported below
    }
  });
  if (hasOpenCodePlugin(options.root)) agents.push('opencode');
  for (const agent of agents) {
    const found = agent === 'opencode' ? openCodeChecks(options) : agentChecks(agent, options);
    checks.push(...found.checks);
    if (found.hook !== undefined) hooks.push(found.hook);
    if (agent === 'codex') checks.push(...(await codexTrustChecks(options)));
  }
  const git = isGitRepository(options.root);
  if (git) {
    const found = gitChecks(options);
    const installedElsewhere = agents.length > 0;
    // A repository with no gate at all gets one line, not a list of failures.
    if (found.hook !== undefined || installedElsewhere || found.checks.some((check) => check.ok)) {
      checks.push(...found.checks, ...gitHookChecks(options.root, options.env));
    }
    if (found.hook !== undefined) hooks.push(found.hook);
  }
  if (agents.length === 0 && hooks.length === 0) {
    checks.push({
      area: 'project',
      ok: false,
      what: `no holdfast gate is installed in ${options.root}`,
      fix: `${installFix('claude-code', options)} (or codex, gemini-cli, qwen-code, opencode, copilot-cli, git)`,
    });
    return checks;
  }
  if (git) {
    const ignored = isHoldfastExcluded(options.root);
    checks.push(
      ignored
        ? { area: 'project', ok: true, what: '.holdfast/ is ignored by git' }
        : {
            area: 'project',
            ok: false,
            what: '.holdfast/ (audit log, session state) is not ignored by git',
            fix: 'run `holdfast install git` (adds it to .git/info/exclude)',
          },
    );
  }
  checks.push(...(await rulebookChecks(hooks, options)));
  // holdfast exec (issue 27): which containment is in force.
  checks.push(...containmentChecks(options.env));
  return checks;
}
