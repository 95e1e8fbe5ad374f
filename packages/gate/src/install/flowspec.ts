import type { Rulebook } from '@holdfast/core/contract';

/**
 * The rulebook as an Agent Relay workflow (relay.yaml), so a measured rulebook runs as enforced
 * gates there too. The shape is the one Relay's published schema (packages/sdk/src/workflows/
 * schema.json) accepts: deterministic steps carry only `name`, `type`, `command`, `dependsOn`,
 * `timeoutMs`, `failOnError` and `captureOutput`; a step passes when its command exits 0.
 */
const FLOWSPEC_VERSION = '0.1.0';

/** Where the first step writes the change it collected, and every rule step reads it. */
const FLOW_ACTIONS_PATH = '.holdfast/flow/actions.json';
export const COLLECT_STEP = 'collect-actions';

interface FlowSpecStep {
  readonly name: string;
  readonly type: 'deterministic';
  readonly command: string;
  readonly dependsOn?: readonly string[];
  readonly failOnError: true;
  readonly captureOutput: true;
}

export interface FlowSpec {
  readonly version: string;
  readonly name: string;
  readonly description: string;
  readonly swarm: { readonly pattern: 'dag' };
  readonly workflows: readonly { readonly name: string; readonly description: string; readonly onError: 'fail'; readonly steps: readonly FlowSpecStep[] }[];
}

export interface FlowSpecOptions {
  /**
   * The rulebook the steps name with `--rulebook`, as the person gave it to the export. Absent, the
   * steps leave it out and `holdfast check` resolves it itself, exactly as the CLI does.
   */
  readonly rulebookPath?: string;
  /** How the workflow calls holdfast (`holdfast`, `npx holdfast`). */
  readonly holdfast: string;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'rule'
  );
}

/**
 * A collecting step (`holdfast changes`: the work tree's change against HEAD, written where the
 * rule steps read it, or to $HOLDFAST_ACTIONS), then one step per rule: `holdfast check` over that
 * action list, its JSON report narrowed to the rule, exit 1 when the rule failed. A check that
 * cannot run (bad input, crash) prints no JSON, the filter cannot parse it and exits non-zero: the
 * step fails closed.
 */
export function rulebookToFlowSpec(rulebook: Rulebook, options: FlowSpecOptions): FlowSpec {
  const actions = `"\${HOLDFAST_ACTIONS:-${FLOW_ACTIONS_PATH}}"`;
  const rulebookFlag = options.rulebookPath === undefined ? '' : ` --rulebook ${shellQuote(options.rulebookPath)}`;
  const collect: FlowSpecStep = {
    name: COLLECT_STEP,
    type: 'deterministic',
    command: `${options.holdfast} changes --out ${actions}`,
    failOnError: true,
    captureOutput: true,
  };
  const checks = rulebook.rules.map((rule): FlowSpecStep => {
    const filter = `node -e ${shellQuote(
      `let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const r=JSON.parse(t);const f=r.checks.filter(c=>c.rule===${JSON.stringify(rule.id)}&&!c.ok);for(const c of f)console.error(c.detail);process.exit(f.length>0?1:0)})`,
    )}`;
    return {
      name: `${slug(rule.id)}-${slug(rule.name)}`,
      type: 'deterministic',
      command: `${options.holdfast} check${rulebookFlag} --json ${actions} | ${filter}`,
      dependsOn: [COLLECT_STEP],
      failOnError: true,
      captureOutput: true,
    };
  });
  const rules = rulebook.rules.map((rule) => `${rule.id} ${rule.name}`).join(', ');
  return {
    version: FLOWSPEC_VERSION,
    name: `holdfast-${slug(rulebook.name)}`,
    description: `The holdfast rulebook "${rulebook.name}" as deterministic gates: the work tree's change is collected, then one \`holdfast check\` step per rule (${rules}) must exit 0.`,
    swarm: { pattern: 'dag' },
    workflows: [
      {
        name: `enforce-${slug(rulebook.name)}`,
        description: rulebook.description ?? `Enforce the ${rulebook.name} rulebook.`,
        onError: 'fail',
        steps: [collect, ...checks],
      },
    ],
  };
}
