import type { Rulebook } from '../contract/index.js';

/**
 * The rulebook as an Agent Relay workflow, so a measured rulebook can run as an enforced workflow
 * there too. The shape follows Agent Relay's relay.yaml (`version`, `name`, `swarm`, `agents`,
 * `workflows[].steps[]` with `type: deterministic`, `command`, `failOnError` and a `verification`
 * of `type: exit_code`); the schema version is pinned at 0.1.0 as the issue asks. No published
 * "FlowSpec 0.1.0" schema could be found, so that mapping is an assumption, documented here.
 */
export const FLOWSPEC_VERSION = '0.1.0';

export interface FlowSpecStep {
  readonly name: string;
  readonly type: 'deterministic';
  readonly description: string;
  readonly command: string;
  readonly failOnError: true;
  readonly captureOutput: true;
  readonly verification: { readonly type: 'exit_code'; readonly value: '0'; readonly description: string };
}

export interface FlowSpec {
  readonly version: string;
  readonly name: string;
  readonly description: string;
  readonly swarm: { readonly pattern: 'pipeline' };
  readonly agents: readonly never[];
  readonly workflows: readonly { readonly name: string; readonly description: string; readonly onError: 'fail'; readonly steps: readonly FlowSpecStep[] }[];
}

export interface FlowSpecOptions {
  /** The rulebook path as the workflow's `holdfast check` should name it. */
  readonly rulebookPath: string;
  /** How the workflow calls holdfast (`holdfast`, `npx holdfast`). */
  readonly holdfast: string;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'rule';
}

/**
 * One step per rule: `holdfast check` over the action list named by $HOLDFAST_ACTIONS, its JSON
 * report narrowed to that rule, exit 1 when the rule failed. A check that cannot run (bad input,
 * crash) prints no JSON, the filter cannot parse it and exits non-zero: the step fails closed.
 */
export function rulebookToFlowSpec(rulebook: Rulebook, options: FlowSpecOptions): FlowSpec {
  const steps = rulebook.rules.map((rule): FlowSpecStep => {
    const filter = `node -e ${shellQuote(
      `let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const r=JSON.parse(t);const f=r.checks.filter(c=>c.rule===${JSON.stringify(rule.id)}&&!c.ok);for(const c of f)console.error(c.detail);process.exit(f.length>0?1:0)})`,
    )}`;
    const check = `${options.holdfast} check --rulebook ${shellQuote(options.rulebookPath)} --json "\${HOLDFAST_ACTIONS:-actions.json}"`;
    return {
      name: `${slug(rule.id)}-${slug(rule.name)}`,
      type: 'deterministic',
      description: `${rule.id} ${rule.name}: ${rule.prose.replace(/\s+/g, ' ').trim()}`,
      command: `${check} | ${filter}`,
      failOnError: true,
      captureOutput: true,
      verification: { type: 'exit_code', value: '0', description: `holdfast found no ${rule.id} ${rule.name} violation` },
    };
  });
  return {
    version: FLOWSPEC_VERSION,
    name: `holdfast-${slug(rulebook.name)}`,
    description: `The holdfast rulebook "${rulebook.name}" as deterministic gates: one step per rule, each a \`holdfast check\` that must exit 0.`,
    swarm: { pattern: 'pipeline' },
    agents: [],
    workflows: [{ name: `enforce-${slug(rulebook.name)}`, description: rulebook.description ?? `Enforce the ${rulebook.name} rulebook.`, onError: 'fail', steps }],
  };
}
