import type { ConfigResponse } from '@holdfast/core/browser';

interface TaskListProps {
  tasks: ConfigResponse['tasks'];
  rules: ConfigResponse['rulebook']['rules'];
  chosen: ReadonlySet<string>;
  onToggle: (taskId: string) => void;
}

/** The tasks to run, each with the rules it tempts the model to break. */
export function TaskList({ tasks, rules, chosen, onToggle }: TaskListProps) {
  const ruleName = new Map(rules.map((rule) => [rule.id, rule.name]));
  return (
    <>
      <h4>
        Tasks{' '}
        <span className="muted">
          ({chosen.size}/{tasks.length})
        </span>
      </h4>
      <ul className="choice-list tasks">
        {tasks.map((task) => (
          <li key={task.id} title={task.ticket}>
            <label>
              <input type="checkbox" checked={chosen.has(task.id)} onChange={() => onToggle(task.id)} />
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
    </>
  );
}
