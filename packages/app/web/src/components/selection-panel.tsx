import { useState } from 'react';
import type { ApiRunFile, ConfigResponse, RunSelection } from '@holdfast/core/browser';

interface SelectionPanelProps {
  config: ConfigResponse;
  runFiles: readonly ApiRunFile[];
  onStart: (selection: Partial<RunSelection>) => Promise<void>;
}

function usable(target: ConfigResponse['targets'][number]): boolean {
  return target.reachable && (target.keyEnv === undefined || target.hasKey);
}

/** What to run: live targets × tasks, or a replay of a saved run (which needs no key). */
export function SelectionPanel({ config, runFiles, onStart }: SelectionPanelProps) {
  const [targets, setTargets] = useState<ReadonlySet<string>>(
    () =>
      new Set(
        config.targets
          .filter(usable)
          .slice(0, 1)
          .map((target) => target.id),
      ),
  );
  const [tasks, setTasks] = useState<ReadonlySet<string>>(() => new Set(config.tasks.map((task) => task.id)));
  const [reps, setReps] = useState(1);
  const [concurrency, setConcurrency] = useState(3);
  const [humanGate, setHumanGate] = useState(false);
  const [sandbox, setSandbox] = useState(false);
  const [mode, setMode] = useState<'plan' | 'loop'>('plan');
  const [timeoutSeconds, setTimeoutSeconds] = useState(90);
  const [replay, setReplay] = useState(() => config.defaultRun ?? runFiles[0]?.name ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const ruleName = new Map(config.rulebook.rules.map((rule) => [rule.id, rule.name]));
  const toggle = (set: ReadonlySet<string>, value: string): Set<string> => {
    const next = new Set(set);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    return next;
  };
  const common = { reps, concurrency, humanGate, sandbox, mode, approvalTimeoutSeconds: timeoutSeconds };
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
  const allTasks = tasks.size === config.tasks.length;

  return (
    <section className="panel selection" data-testid="selection" aria-label="Run selection">
      <div className="panel-head">
        <h2>New run</h2>
      </div>
      <h4>Targets</h4>
      {config.targets.length === 0 ? <p className="muted">No targets configured. A replay needs none.</p> : null}
      <ul className="choice-list">
        {config.targets.map((target) => (
          <li key={target.id} title={target.detail}>
            <label className={usable(target) ? '' : 'unusable'}>
              <input type="checkbox" checked={targets.has(target.id)} onChange={() => setTargets(toggle(targets, target.id))} />
              <span className={`dot ${target.reachable ? 'ok' : 'down'}`} role="img" aria-label={target.reachable ? 'reachable' : 'unreachable'} />
              {target.id}
              <span className="muted">
                {' '}
                {target.model ?? target.provider}
                {target.keyEnv !== undefined ? (target.hasKey ? ' · key set' : ` · ${target.keyEnv} not set`) : ''}
                {target.reachable ? '' : ` · ${target.detail}`}
              </span>
            </label>
          </li>
        ))}
      </ul>
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
              {task.id}
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
        <label className="gate-toggle">
          <input type="checkbox" checked={humanGate} onChange={(event) => setHumanGate(event.target.checked)} data-testid="human-gate" />
          human gate on commits
        </label>
        <label title="plan: one reply holds every action. loop: the model works through tool calls in its own repository, turn after turn">
          mode
          <select value={mode} onChange={(event) => setMode(event.target.value === 'loop' ? 'loop' : 'plan')} data-testid="mode">
            <option value="plan">plan (one reply)</option>
            <option value="loop">loop (tool calls)</option>
          </select>
        </label>
        <label className="gate-toggle" title="Each arm lands in a throwaway git repository: real commits, allowlisted commands run">
          <input type="checkbox" checked={sandbox} onChange={(event) => setSandbox(event.target.checked)} data-testid="sandbox-toggle" />
          land in git sandboxes
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
      </div>
      <div className="run-buttons">
        <button
          type="button"
          className="primary"
          disabled={busy || targets.size === 0 || tasks.size === 0}
          data-testid="start-run"
          onClick={() => submit({ ...common, targets: [...targets], tasks: allTasks ? 'all' : [...tasks] })}
        >
          Run {targets.size} target{targets.size === 1 ? '' : 's'}
        </button>
      </div>
      <UnusableWarning targets={config.targets.filter((target) => targets.has(target.id) && !usable(target))} />
      <h4>Replay a saved run (no key needed)</h4>
      <p className="muted small">Answers every round from the file's recorded replies, with its own targets, tasks and repetitions.</p>
      <div className="run-buttons">
        <select value={replay} onChange={(event) => setReplay(event.target.value)} data-testid="replay-file" aria-label="Saved run to replay">
          {runFiles.map((file) => (
            <option key={file.name} value={file.name}>
              {file.name}
              {file.demo !== undefined ? ' (demo)' : ''}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={busy || replay === ''}
          data-testid="start-replay"
          onClick={() =>
            submit({ concurrency, humanGate, sandbox, approvalTimeoutSeconds: timeoutSeconds, replay, ...(allTasks ? {} : { tasks: [...tasks] }) })
          }
        >
          Replay
        </button>
      </div>
      {error !== undefined ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** Chosen targets that cannot answer: the run may start, but their rounds will end as errors. */
function UnusableWarning({ targets }: { targets: readonly ConfigResponse['targets'][number][] }) {
  if (targets.length === 0) return null;
  return (
    <p className="warning" role="status" data-testid="unusable-targets">
      {targets
        .map((target) => `${target.id} ${target.reachable ? `has no key (${target.keyEnv ?? 'key'} not set)` : `is unreachable (${target.detail})`}`)
        .join('; ')}
      : its rounds will end as errors.
    </p>
  );
}
