import { useState } from 'react';
import type { ApiRunFile, RunSelection } from '@holdfast/core/browser';
import { replayChoice, replayRounds } from '../run-form.js';

interface ReplayFormProps {
  /** The saved runs that can be replayed; undefined until the run list has come. */
  files: readonly ApiRunFile[] | undefined;
  /** Why the run list could not be read, when it could not: then there is nothing to offer, and the form says why. */
  listError?: string | undefined;
  /** The server's default run, offered until the person picks another. */
  defaultRun: string | undefined;
  /** First on the form (nothing configured can run): its button is the primary one. */
  primary: boolean;
  busy: boolean;
  onReplay: (selection: Partial<RunSelection>) => void;
}

/** A replay of a saved plan-mode run: its recorded replies, for all or one of its tasks and its first N repetitions. */
export function ReplayForm({ files, listError, defaultRun, primary, busy, onReplay }: ReplayFormProps) {
  // Only the person's pick is kept: the offered file follows the run list, which can arrive after this form is drawn.
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const name = replayChoice(defaultRun, files ?? [], picked);
  const [task, setTask] = useState('all');
  const [reps, setReps] = useState<number | undefined>(undefined);
  const file = files?.find((candidate) => candidate.name === name);
  const recordedReps = file?.reps ?? 1;
  const chosenReps = Math.min(reps ?? recordedReps, recordedReps);
  const rounds = replayRounds(file, task, chosenReps);
  const choose = (next: string) => {
    setPicked(next);
    setTask('all');
    setReps(undefined);
  };
  return (
    <div className="replay-form" data-testid="replay-form">
      <h4>Replay a saved run (no key needed)</h4>
      <p className="muted small">Answers each round from the file&apos;s recorded replies.</p>
      {listError !== undefined ? (
        // Not "no run to replay": the folder may hold several; it could not be read.
        <p className="error small" role="alert" data-testid="replay-list-error">
          The saved runs could not be read: {listError}. Reload the page to try again.
        </p>
      ) : files === undefined ? (
        // Not "no run to replay": the list has not come yet.
        <p className="muted small" data-testid="replay-loading">
          Reading the saved runs…
        </p>
      ) : files.length === 0 ? (
        <p className="muted small" data-testid="no-replay">
          No saved plan-mode run to replay yet.
        </p>
      ) : (
        <>
          <select value={name ?? ''} onChange={(event) => choose(event.target.value)} data-testid="replay-file" aria-label="Saved run to replay">
            {files.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.name}
                {candidate.demo !== undefined ? ' (demo)' : ''}
              </option>
            ))}
          </select>
          <div className="knobs">
            <label>
              task
              <select value={task} onChange={(event) => setTask(event.target.value)} data-testid="replay-task">
                <option value="all">all {file?.tasks?.length ?? ''} tasks</option>
                {(file?.tasks ?? []).map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            </label>
            <label>
              repetitions
              <select value={chosenReps} onChange={(event) => setReps(Number(event.target.value))} data-testid="replay-reps">
                {Array.from({ length: recordedReps }, (_, index) => index + 1).map((value) => (
                  <option key={value} value={value}>
                    {value === recordedReps ? `${value} (all recorded)` : `first ${value}`}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </>
      )}
      <div className="run-buttons">
        <button
          type="button"
          className={primary ? 'primary' : ''}
          disabled={busy || file === undefined}
          data-testid="start-replay"
          onClick={() => name !== undefined && onReplay({ replay: name, reps: chosenReps, ...(task === 'all' ? {} : { tasks: [task] }) })}
        >
          Replay{rounds !== undefined ? ` ${rounds} round${rounds === 1 ? '' : 's'}` : ''}
        </button>
      </div>
    </div>
  );
}
