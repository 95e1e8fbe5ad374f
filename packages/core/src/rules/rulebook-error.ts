import { InputError } from '../contract/errors.js';

export type RulebookErrorCode = 'E_RULEBOOK_READ' | 'E_RULEBOOK_YAML' | 'E_RULEBOOK_INVALID';

/** One thing wrong with a rulebook: where, and what to write instead. */
export interface RulebookProblem {
  /** "rule R4, field check.patterns[1]", "field version", "top level". */
  readonly location: string;
  readonly line: number | undefined;
  readonly message: string;
}

/** A rulebook that cannot be used. The message lists every problem found, one a line. */
export class RulebookError extends InputError {
  readonly file: string;
  readonly problems: readonly RulebookProblem[];

  constructor(code: RulebookErrorCode, file: string, problems: readonly RulebookProblem[], options?: { cause?: unknown }) {
    super(code, problems.map((problem) => formatProblem(file, problem)).join('\n'), options);
    this.file = file;
    this.problems = problems;
  }
}

function formatProblem(file: string, problem: RulebookProblem): string {
  const line = problem.line === undefined ? '' : ` (line ${problem.line})`;
  return `${file}: ${problem.location}${line}: ${problem.message}`;
}
