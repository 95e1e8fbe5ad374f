import type { Arm, ArmTotals, Rate, Totals } from '@holdfast/core/browser';
import { RATE_DEFINITIONS } from '@holdfast/lab/browser';
import { RateBar } from './rate-bar.js';

const ARMS: readonly Arm[] = ['told', 'held'];
const ARM_COLOR: Readonly<Record<Arm, string>> = { told: '#e8590c', held: '#1971c2' };

type RateKey = 'roundsWithAttempt' | 'roundsLanded' | 'clean' | 'taskDone' | 'cleanAndDone';
const RATES: readonly { key: RateKey; label: string; hint: string }[] = [
  { key: 'roundsWithAttempt', label: 'rounds with an attempt', hint: RATE_DEFINITIONS.roundsWithAttempt },
  { key: 'roundsLanded', label: 'rounds where a violation landed', hint: RATE_DEFINITIONS.roundsLanded },
  { key: 'clean', label: 'clean rounds', hint: RATE_DEFINITIONS.clean },
  { key: 'taskDone', label: 'task done (where judged)', hint: RATE_DEFINITIONS.taskDone },
  { key: 'cleanAndDone', label: 'clean and done', hint: RATE_DEFINITIONS.cleanAndDone },
];

type CountKey = 'attempts' | 'landed' | 'blocked' | 'warned' | 'declined' | 'refused' | 'noOp' | 'overCap' | 'unparseable' | 'errors';
const COUNTS: readonly CountKey[] = ['attempts', 'landed', 'blocked', 'warned', 'declined', 'refused', 'noOp', 'overCap', 'unparseable', 'errors'];
const COUNT_LABEL: Readonly<Partial<Record<CountKey, string>>> = { noOp: 'no-op', overCap: 'over cap' };

type SessionCountKey = 'sessions' | 'recovered' | 'evaded' | 'turns' | 'inputTokens' | 'outputTokens';
const SESSION_COUNTS: readonly { key: SessionCountKey; label: string }[] = [
  { key: 'sessions', label: 'sessions' },
  { key: 'recovered', label: 'recovered' },
  { key: 'evaded', label: 'gate leaks' },
  { key: 'turns', label: 'turns' },
  { key: 'inputTokens', label: 'tokens in' },
  { key: 'outputTokens', label: 'tokens out' },
];

type RuleCountKey = 'attempts' | 'landed' | 'blocked' | 'warned';
/** The told arm lets everything through, so only the held arm has a warned column. */
const RULE_COUNTS: Readonly<Record<Arm, readonly RuleCountKey[]>> = {
  told: ['attempts', 'landed', 'blocked'],
  held: ['attempts', 'landed', 'blocked', 'warned'],
};
const RULE_COUNT_LETTER: Readonly<Record<RuleCountKey, string>> = { attempts: 'A', landed: 'L', blocked: 'B', warned: 'W' };

function armOf(totals: Totals, target: string, arm: Arm): ArmTotals | undefined {
  return totals.arms.find((row) => row.target === target && row.arm === arm);
}

function observed(rate: Rate): number {
  return rate.n;
}

/** Per target, told and held side by side. The two arms are separate generations: never one averaged rate. */
export function TotalsView({ totals }: { totals: Totals }) {
  const targets = [...new Set(totals.arms.map((row) => row.target))];
  if (targets.length === 0) return <p className="muted">No finished rounds yet.</p>;
  return (
    <div className="totals" data-testid="totals">
      {targets.map((target) => (
        <TargetTotals key={target} totals={totals} target={target} />
      ))}
    </div>
  );
}

function TargetTotals({ totals, target }: { totals: Totals; target: string }) {
  const told = armOf(totals, target, 'told');
  const held = armOf(totals, target, 'held');
  const byArm = { told, held };
  const sessions = (told?.sessions ?? 0) + (held?.sessions ?? 0) > 0;
  return (
    <section className="panel target-totals" data-testid={`totals-${target}`} aria-label={`Totals of ${target}`} tabIndex={0}>
      <h3>{target}</h3>
      <p className="totals-arms-note">
        told = rules as prose, {told?.rounds ?? 0} rounds; held = rules as checks, {held?.rounds ?? 0} rounds
      </p>
      <table className="totals-table">
        <thead>
          <tr>
            <th />
            {ARMS.map((arm) => (
              <th key={arm}>
                <span className="arm-dot" style={{ background: ARM_COLOR[arm] }} /> {arm === 'told' ? 'told (rules as prose)' : 'held (rules as checks)'}
                <span className="muted">
                  {' '}
                  · {byArm[arm]?.rounds ?? 0} rounds, n = {byArm[arm] === undefined ? 0 : observed(byArm[arm].clean)}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {RATES.map(({ key, label, hint }) => (
            <tr key={key}>
              <th title={hint}>{label}</th>
              {ARMS.map((arm) => {
                const row = byArm[arm];
                return (
                  <td key={arm} data-arm={arm}>
                    {row === undefined ? '–' : <RateBar rate={row[key]} color={ARM_COLOR[arm]} testId={`rate-${target}-${arm}-${key}`} />}
                  </td>
                );
              })}
            </tr>
          ))}
          {sessions ? (
            <tr>
              <th title="loop and agent sessions: recovered = blocked, then finished cleanly with the task done; gate leaks = a violation landed despite the gate">
                sessions
              </th>
              {ARMS.map((arm) => {
                const row = byArm[arm];
                return (
                  <td key={arm} className="counts" data-arm={arm}>
                    {row === undefined
                      ? '–'
                      : SESSION_COUNTS.map(({ key, label }) => (
                          <span key={key} className="count" data-testid={`count-${target}-${arm}-${key}`} data-value={row[key]}>
                            {key === 'turns' && row.turns === 0 ? (
                              'turns not reported'
                            ) : (
                              <>
                                <b>{row[key]}</b> {label}
                              </>
                            )}
                          </span>
                        ))}
                  </td>
                );
              })}
            </tr>
          ) : null}
          <tr>
            <th>counts</th>
            {ARMS.map((arm) => {
              const row = byArm[arm];
              return (
                <td key={arm} className="counts" data-arm={arm}>
                  {row === undefined
                    ? '–'
                    : COUNTS.map((key) => (
                        <span
                          key={key}
                          className="count"
                          data-testid={`count-${target}-${arm}-${key}`}
                          data-value={row[key]}
                          title={key === 'warned' ? RATE_DEFINITIONS.warned : undefined}
                        >
                          <b>{row[key]}</b> {COUNT_LABEL[key] ?? key}
                        </span>
                      ))}
                </td>
              );
            })}
          </tr>
        </tbody>
      </table>
      <RuleBreakdown told={told} held={held} />
    </section>
  );
}

function RuleBreakdown({ told, held }: { told: ArmTotals | undefined; held: ArmTotals | undefined }) {
  const rules = new Map<string, string>();
  for (const row of [...(told?.perRule ?? []), ...(held?.perRule ?? [])]) if (!rules.has(row.rule)) rules.set(row.rule, row.name);
  if (rules.size === 0) return null;
  const cell = (arm: ArmTotals | undefined, rule: string, key: RuleCountKey) => arm?.perRule.find((row) => row.rule === rule)?.[key] ?? 0;
  return (
    <table className="rule-table">
      <caption className="rule-table-key">A attempts · L landed · B blocked · W warned (held: rule at warn, let through)</caption>
      <thead>
        <tr>
          <th>rule</th>
          <th colSpan={RULE_COUNTS.told.length}>told · n = {told?.clean.n ?? 0}</th>
          <th colSpan={RULE_COUNTS.held.length}>held · n = {held?.clean.n ?? 0}</th>
        </tr>
        <tr className="sub">
          <th />
          {(['told', 'held'] as const).flatMap((arm) =>
            RULE_COUNTS[arm].map((key) => <SubHead key={`${arm}-${key}`} full={key} short={RULE_COUNT_LETTER[key]} />),
          )}
        </tr>
      </thead>
      <tbody>
        {[...rules].map(([rule, name]) => (
          <tr key={rule}>
            <th>
              {rule} {name}
            </th>
            {(['told', 'held'] as const).map((arm) =>
              RULE_COUNTS[arm].map((key) => {
                const value = cell(arm === 'told' ? told : held, rule, key);
                return (
                  <td key={`${arm}-${key}`} className={value === 0 ? 'zero' : key === 'landed' ? 'bad' : ''} data-testid={`rule-${arm}-${rule}-${key}`}>
                    {value}
                  </td>
                );
              }),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A column head that a phone shows as its letter (the table's caption spells the letters out). */
function SubHead({ full, short }: { full: string; short: string }) {
  return (
    <th>
      <span className="head-full">{full}</span>
      <span className="head-short" aria-hidden="true">
        {short}
      </span>
    </th>
  );
}
