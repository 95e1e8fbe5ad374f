import { useMemo } from 'react';
import type { Mode, Rulebook, TaskInfo } from '@holdfast/core/browser';
import { buildMessages } from '@holdfast/lab/browser';
import { renderRulebook } from '@holdfast/core/browser';

interface PromptViewProps {
  task: TaskInfo | undefined;
  rulebook: Rulebook | undefined;
  mode: Mode;
}

/**
 * The full prompt of a plan-mode round, rebuilt from the run's own task and rulebook by the
 * function the runner sent it with: the same messages for both arms (the held arm is never told it
 * is gated). Loop and agent rounds are conversations; their calls are in each arm's timeline.
 */
export function PromptView({ task, rulebook, mode }: PromptViewProps) {
  const messages = useMemo(
    () => (task === undefined || rulebook === undefined || mode !== 'plan' ? undefined : buildMessages(task, renderRulebook(rulebook))),
    [task, rulebook, mode],
  );
  if (messages === undefined) return null;
  return (
    <details className="panel prompt-view" data-testid="prompt-view">
      <summary>Full prompt of this round (both arms)</summary>
      {messages.map((message, index) => (
        <section key={index} data-testid="prompt-message" data-role={message.role}>
          <h4>{message.role}</h4>
          <pre tabIndex={0} aria-label={`${message.role} message`}>
            {message.content}
          </pre>
        </section>
      ))}
    </details>
  );
}
