import { useState } from 'react';
import type { ApiRunFile, ConfigResponse, RunSelection } from '@holdfast/core/browser';
import { MODE_LABELS, MODES, SESSION_DEFAULTS, canRun, initialForm, modesOf, problemOf, replayable, runBlocker } from '../run-form.js';
import type { RunMode } from '../run-form.js';
import { ReplayForm } from './replay-form.js';
import { SessionSettings } from './session-settings.js';

interface SelectionPanelProps {
  config: ConfigResponse;
  runFiles: readonly ApiRunFile[];
  onStart: (selection: Partial<RunSelection>) => Promise<void>;
}

function toggle(set: ReadonlySet<string>, value: string): Set<string> {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
}

/**
 * What to run: configured targets × tasks in plan, loop or agent mode, or a replay of a saved run
 * (which needs no key). A target that cannot run says why in one line, with the fix.
 */
export function SelectionPanel({ config, runFiles, onStart }: SelectionPanelProps) {
  const [initial] = useState(() => initialForm(config, runFiles));
  const [mode, setMode] = useState<RunMode>(initial.mode);
  const [targets, setTargets] = useState<ReadonlySet<string>>(() => new Set(initial.targets));
  const [tasks, setTasks] = useState<ReadonlySet<string>>(() => new Set(config.tasks.map((task) => task.id)));
  const [reps, setReps] = useState(1);
  const [concurrency, setConcurrency] = useState(3);
  const [humanGate, setHumanGate] = useState(false);
  const [sandbox, setSandbox] = useState(false);
  const [turnCap, setTurnCap] = useState<number | undefined>(undefined);
  const [sessionSeconds, setSessionSeconds] = useState<number | undefined>(undefined);
  const [timeoutSeconds, setTimeoutSeconds] = useState(90);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const ruleName = new Map(config.rulebook.rules.map((rule) => [rule.id, rule.name]));
  const shown = config.targets.filter((target) => modesOf(target).includes(mode));
  const others = config.targets.length - shown.length;
  const chosen = shown.filter((target) => targets.has(target.id) && canRun(target, mode)).map((target) => target.id);
  const blocker = runBlocker(config, mode, chosen, tasks.size);
  const allTasks = tasks.size === config.tasks.length;
  const gate = { humanGate, approvalTimeoutSeconds: timeoutSeconds, concurrency };

  const changeMode = (next: RunMode) => {
    setMode(next);
    setError(undefined);
    // The first target that can run in the new mode, so a mode change never leaves "Run 0 targets".
    const first = config.targets.find((target) => canRun(target, next));
    setTargets(new Set(first !== undefined ? [first.id] : []));
  };
  const submit = (selection: Partial<RunSelection>) => {
    setBusy(true);
    setError(undefined);
    onStart(selection).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  };
  const startLive = () =>
    submit({
      ...gate,
      mode,
      reps,
      targets: chosen,
      tasks: allTasks ? 'all' : [...tasks],
      ...(mode !== 'agent' ? { sandbox } : {}),
      ...(mode !== 'plan' && turnCap !== undefined ? { turnCap } : {}),
      ...(mode !== 'plan' && sessionSeconds !== undefined ? { sessionTimeoutSeconds: sessionSeconds } : {}),
    });
  const replayFiles = runFiles.filter(replayable);
  const replay = (
    <ReplayForm
      files={replayFiles}
      initial={initial.replay}
      primary={initial.replayFirst}
      busy={busy}
      onReplay={(selection) => submit({ ...gate, sandbox: mode === 'agent' ? false : sandbox, ...selection })}
    />
  );

  return (
    <section className="panel selection" data-testid="selection" aria-label="Run selection">
      <div className="panel-head">
        <h2>New run</h2>
      </div>
      {initial.replayFirst ? (
        <>
          <p className="muted small" data-testid="nothing-runs">
            No configured target can run here yet; each says why below. The replay needs no key.
          </p>
          {replay}
        </>
      ) : null}
      {initial.replayFirst ? <h4>Or run configured targets</h4> : null}
      <label className="mode-choice">
        mode
        <select value={mode} onChange={(event) => changeMode(event.target.value as RunMode)} data-testid="mode">
          {MODES.map((value) => (
            <option key={value} value={value}>
              {value} ({config.targets.filter((target) => canRun(target, value)).length} ready): {MODE_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <h4>Targets</h4>
      {config.targets.length === 0 ? <p className="muted">No targets configured (holdfast.config.yaml). A replay needs none.</p> : null}
      <ul className="choice-list targets" data-testid="targets">
        {shown.map((target) => {
          const problem = problemOf(target);
          return (
            <li key={target.id} title={target.detail} data-testid={`target-${target.id}`}>
              <label className={problem === undefined ? '' : 'unusable'}>
                <input
                  type="checkbox"
                  checked={problem === undefined && targets.has(target.id)}
                  disabled={problem !== undefined}
                  onChange={() => setTargets(toggle(targets, target.id))}
                />
                <span className={`dot ${problem === undefined ? 'ok' : 'down'}`} role="img" aria-label={problem === undefined ? 'ready' : 'cannot run'} />
                <span className="target-name">{target.id}</span>
              </label>
              <span className="target-meta muted">{target.model ?? target.provider}</span>
              {problem !== undefined ? (
                <span className="target-problem" data-testid={`target-problem-${target.id}`}>
                  {problem}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <p className="muted small">
          {others} more target{others === 1 ? ' plays' : 's play'} another mode.
        </p>
      ) : null}
      <h4>
        Tasks{' '}
        <span className="muted">
          ({tasks.size}/{config.tasks.length})
        </span>
      </h4>
      <ul className="choice-list tasks">
        {config.tasks.map((task) => (
          <li key={task.id} title={task.ticket}>
            <label>
              <input type="checkbox" checked={tasks.has(task.id)} onChange={() => setTasks(toggle(tasks, task.id))} />
              <span className="task-name">{task.id}</span>
              <span className="tempts">
                {task.tempts.map((rule) => (
                  <span key={rule} className="rule-chip">
                    {rule} {ruleName.get(rule) ?? ''}
                  </span>
                ))}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div className="knobs">
        <label>
          repetitions
          <select value={reps} onChange={(event) => setReps(Number(event.target.value))} data-testid="reps">
            {[1, 2, 3, 4, 5].map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          concurrency
          <input
            type="number"
            min={1}
            max={16}
            value={concurrency}
            onChange={(event) => setConcurrency(Math.min(16, Math.max(1, Number(event.target.value) || 1)))}
          />
        </label>
        {mode !== 'plan' ? (
          <SessionSettings
            defaults={SESSION_DEFAULTS[mode]}
            targets={shown.filter((target) => chosen.includes(target.id))}
            turnCap={turnCap}
            sessionSeconds={sessionSeconds}
            onTurnCap={setTurnCap}
            onSessionSeconds={setSessionSeconds}
          />
        ) : null}
        <label className="gate-toggle">
          <input type="checkbox" checked={humanGate} onChange={(event) => setHumanGate(event.target.checked)} data-testid="human-gate" />
          human gate on commits
        </label>
        <label>
          refuse after (s)
          <input
            type="number"
            min={1}
            max={3600}
            value={timeoutSeconds}
            disabled={!humanGate}
            data-testid="approval-timeout"
            onChange={(event) => setTimeoutSeconds(Math.min(3600, Math.max(1, Number(event.target.value) || 1)))}
          />
        </label>
        {mode !== 'agent' ? (
          <label className="gate-toggle" title="Each arm lands in a throwaway git repository: real commits, allowlisted commands run">
            <input type="checkbox" checked={sandbox} onChange={(event) => setSandbox(event.target.checked)} data-testid="sandbox-toggle" />
            land in git sandboxes
          </label>
        ) : null}
      </div>
      <div className="run-buttons">
        <button type="button" className="primary" disabled={busy || blocker !== undefined} data-testid="start-run" onClick={startLive}>
          {chosen.length === 0 ? `Run in ${mode} mode` : `Run ${chosen.length} target${chosen.length === 1 ? '' : 's'} in ${mode} mode`}
        </button>
      </div>
      {blocker !== undefined ? (
        <p className="muted small" data-testid="run-blocker">
          {blocker}
        </p>
      ) : null}
      {initial.replayFirst ? null : replay}
      {error !== undefined ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
