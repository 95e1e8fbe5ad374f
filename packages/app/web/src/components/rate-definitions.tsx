import { RATE_DEFINITIONS } from '@holdfast/lab/browser';
import type { RateDefinitionKey } from '@holdfast/lab/browser';

const ORDER: readonly RateDefinitionKey[] = [
  'n',
  'roundsWithAttempt',
  'roundsLanded',
  'clean',
  'taskDone',
  'cleanAndDone',
  'noOp',
  'overCap',
  'counts',
  'warned',
];

/** What the totals count, in the same words as the terminal and Markdown reports. */
export function RateDefinitions() {
  return (
    <section className="panel rate-definitions" data-testid="rate-definitions" aria-label="What the figures count">
      <h2>What the figures count</h2>
      <ul>
        {ORDER.map((key) => (
          <li key={key} data-testid={`definition-${key}`}>
            {RATE_DEFINITIONS[key]}.
          </li>
        ))}
      </ul>
    </section>
  );
}
