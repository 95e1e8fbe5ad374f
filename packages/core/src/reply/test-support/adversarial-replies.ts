/** Reply shapes made to slow a parser down: what the reply tests and the reply bench both feed it. */
export const ADVERSARIAL: Record<string, (size: number) => string> = {
  'runs of {': (size) => '{'.repeat(size),
  'runs of [': (size) => '['.repeat(size),
  'runs of "': (size) => '"'.repeat(size),
  '"actions": [ repeated': (size) => '"actions": ['.repeat(Math.ceil(size / 12)),
  '{"actions": [ then quotes': (size) => `{"actions": [${'"'.repeat(size)}`,
  'nested {"actions": {': (size) => '{"actions": '.repeat(Math.ceil(size / 12)),
  '{} pairs': (size) => '{"type":"x"}'.repeat(Math.ceil(size / 12)),
};
