import type { Function as FunctionNode } from 'unbash';

export interface Variable {
  readonly value: string | undefined;
  readonly exported: boolean;
}

/** What one shell (or subshell) knows: where it is, its variables and functions. */
export class Scope {
  constructor(
    public cwd: string | undefined,
    public previousCwd: string | undefined,
    readonly variables: Map<string, Variable>,
    readonly functions: Map<string, FunctionNode>,
    readonly directoryStack: (string | undefined)[],
  ) {}

  /** A subshell: a copy, so its `cd` and assignments do not leak out. */
  child(): Scope {
    return new Scope(this.cwd, this.previousCwd, new Map(this.variables), new Map(this.functions), [...this.directoryStack]);
  }

  /**
   * After branches of which one ran (`exhaustive`: an `if` with an `else`) or possibly none (an `if`
   * without one, `case`, a loop body): what all outcomes agree on stays known, the rest becomes unknown.
   */
  join(branches: readonly Scope[], exhaustive: boolean): void {
    const outcomes = exhaustive ? branches : [...branches, this.child()];
    if (outcomes.length === 0) return;
    const cwd = outcomes[0]?.cwd;
    this.cwd = outcomes.every((outcome) => outcome.cwd === cwd) ? cwd : undefined;
    const names = new Set(outcomes.flatMap((outcome) => [...outcome.variables.keys()]));
    for (const name of names) {
      const values = outcomes.map((outcome) => outcome.variables.get(name));
      const value = values[0]?.value;
      const exported = values.some((variable) => variable?.exported === true);
      this.variables.set(name, { value: values.every((variable) => variable?.value === value) ? value : undefined, exported });
    }
    for (const branch of branches) for (const [name, node] of branch.functions) if (!this.functions.has(name)) this.functions.set(name, node);
  }

  /** A new shell process (`bash -c`): exported variables only, no functions. */
  process(cwd: string | undefined = this.cwd): Scope {
    const exported = new Map([...this.variables].filter(([, variable]) => variable.exported));
    return new Scope(cwd, undefined, exported, new Map(), []);
  }
}
