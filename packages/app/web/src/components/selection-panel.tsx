import { useState } from 'react';
import type { ApiRunFile, ConfigResponse, RunSelection } from '@holdfast/core/browser';
import { canRun, initialForm, modesOf, replayable, runBlocker } from '../run-form.js';
import type { RunMode } from '../run-form.js';
import { ModeChoice } from './mode-choice.js';
import { ReplayForm } from './replay-form.js';
import { DEFAULT_KNOBS, RunKnobs } from './run-knobs.js';
import type { RunKnobValues } from './run-knobs.js';
import { TargetList } from './target-list.js';
import { TaskList } from './task-list.js';
import { useStartRun } from './use-start-run.js';

interface SelectionPanelProps {
  config: ConfigResponse;
  /** The saved runs; undefined until the list has come, which can be after the configuration. */
  runFiles: readonly ApiRunFile[] | undefined;
  /** Why the run list could not be read, when it could not. */
  runListError: string | undefined;
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
export function SelectionPanel({ config, runFiles, runListError, onStart }: SelectionPanelProps) {
  const [initial] = useState(() => initialForm(config));
  const [mode, setMode] = useState<RunMode>(initial.mode);
  const [targets, setTargets] = useState<ReadonlySet<string>>(() => new Set(initial.targets));
  const [tasks, setTasks] = useState<ReadonlySet<string>>(() => new Set(config.tasks.map((task) => task.id)));
  const [knobs, setKnobs] = useState<RunKnobValues>(DEFAULT_KNOBS);
  const { busy, error, submit, clearError } = useStartRun(onStart);
  const { reps, concurrency, humanGate, sandbox, turnCap, sessionSeconds, timeoutSeconds } = knobs;

  const shown = config.targets.filter((target) => modesOf(target).includes(mode));
  const chosen = shown.filter((target) => targets.has(target.id) && canRun(target, mode)).map((target) => target.id);
  const blocker = runBlocker(config, mode, chosen, tasks.size);
  const allTasks = tasks.size === config.tasks.length;
  const gate = { humanGate, approvalTimeoutSeconds: timeoutSeconds, concurrency };

  const changeMode = (next: RunMode) => {
    setMode(next);
    clearError();
    // The first target that can run in the new mode, so a mode change never leaves "Run 0 targets".
    const first = config.targets.find((target) => canRun(target, next));
    setTargets(new Set(first !== undefined ? [first.id] : []));
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
  const replayFiles = runFiles?.filter(replayable);
  const replay = (
    <ReplayForm
      files={replayFiles}
      listError={runListError}
      defaultRun={config.defaultRun}
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
      <ModeChoice targets={config.targets} mode={mode} onMode={changeMode} />
      <TargetList configured={config.targets.length} shown={shown} chosen={targets} onToggle={(id) => setTargets(toggle(targets, id))} />
      <TaskList tasks={config.tasks} rules={config.rulebook.rules} chosen={tasks} onToggle={(id) => setTasks(toggle(tasks, id))} />
      <RunKnobs
        mode={mode}
        knobs={knobs}
        chosenTargets={shown.filter((target) => chosen.includes(target.id))}
        onChange={(change) => setKnobs((current) => ({ ...current, ...change }))}
      />
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
