import type { SandboxResult } from '@holdfast/core/browser';

/** Which kind of line of a unified diff this is, for colouring. */
function diffLineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-added';
  if (line.startsWith('-')) return 'diff-removed';
  return 'diff-context';
}

/**
 * What really landed in the arm's throwaway git repository (`--sandbox`): commits, commands with
 * their exit codes, refused writes, and the diff against the task's base commit.
 */
export function SandboxView({ sandbox, elided }: { sandbox: SandboxResult; elided: boolean }) {
  return (
    <details className="sandbox" data-testid="sandbox" open>
      <summary>
        Landed in a git sandbox · {sandbox.changedPaths.length} file{sandbox.changedPaths.length === 1 ? '' : 's'} changed · {sandbox.commits.length} commit
        {sandbox.commits.length === 1 ? '' : 's'} · isolation {sandbox.isolation}
      </summary>
      <p className="muted">
        base {sandbox.baseCommit.slice(0, 12)}
        {sandbox.isolationDetail !== undefined ? ` · ${sandbox.isolationDetail}` : ''}
        {sandbox.keptAt !== undefined ? ` · kept at ${sandbox.keptAt}` : ''}
      </p>
      {sandbox.commits.length > 0 ? (
        <ul className="sandbox-list">
          {sandbox.commits.map((commit) => (
            <li key={commit.hash}>
              <code>{commit.hash.slice(0, 12)}</code> (action {commit.index}) {commit.message}
            </li>
          ))}
        </ul>
      ) : null}
      {sandbox.commands.length > 0 ? (
        <ul className="sandbox-list">
          {sandbox.commands.map((command) => (
            <li key={command.index}>
              <code>{command.cmd}</code>{' '}
              {command.executed
                ? command.timedOut === true
                  ? `killed at the timeout`
                  : `exit ${command.exitCode ?? command.signal ?? '?'}`
                : `not executed: ${command.reason ?? 'refused'}`}
              {command.durationMs !== undefined ? ` · ${Math.round(command.durationMs)} ms` : ''}
              {!elided && command.executed && command.output !== undefined && command.output.text.trim() !== '' ? (
                <CommandOutput text={command.output.text} cut={command.output.kept === 'tail'} failed={command.exitCode !== 0} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {sandbox.refusedWrites.length > 0 ? (
        <ul className="sandbox-list">
          {sandbox.refusedWrites.map((write) => (
            <li key={write.index}>
              refused write <code>{write.path}</code>: {write.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {elided ? (
        <p className="muted">The diff loads with the round.</p>
      ) : sandbox.diff.text === '' ? (
        <p className="muted">Nothing landed in the tree.</p>
      ) : (
        <pre className="diff" data-testid="sandbox-diff">
          {sandbox.diff.text.split('\n').map((line, index) => (
            <div key={index} className={diffLineClass(line)}>
              {line}
            </div>
          ))}
          {sandbox.diff.truncated ? (
            <div className="diff-file">
              … cut at {sandbox.diff.text.length} of {sandbox.diff.bytes} bytes
            </div>
          ) : null}
        </pre>
      )}
    </details>
  );
}

/**
 * A command's output (a test run's report, say), always reachable: open when the command failed,
 * folded when it passed; the whole kept text either way.
 */
function CommandOutput({ text, cut, failed }: { text: string; cut: boolean; failed: boolean }) {
  const lines = text.trimEnd().split('\n');
  return (
    <details className="command-output-details" open={failed} data-testid="command-output-details" data-failed={failed}>
      <summary>
        output · {lines.length} line{lines.length === 1 ? '' : 's'}
        {cut ? ' (earlier output cut)' : ''}
      </summary>
      <pre className="command-output" data-testid="command-output" tabIndex={0}>
        {cut ? '… earlier output cut\n' : ''}
        {lines.join('\n')}
      </pre>
    </details>
  );
}
