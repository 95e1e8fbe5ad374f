import type { ConfirmRun } from '../exec/index.js';
import type { RulesEngine } from '../decide/index.js';
import type { ReadText } from '../io/index.js';

/** What every event handler of the agent hook gets from the CLI command. */
export interface HookOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  /** `--rulebook`; relative to the project root. The rules engine's default when absent. */
  readonly rulebookFile: string | undefined;
  readonly loadEngine: () => Promise<RulesEngine>;
  readonly readText?: ReadText;
  /** `--observe`: judge and audit every call with every rule result, and always answer allow. */
  readonly observe?: boolean;
  /** Whether the project's volume ignores case; detected from the file system when absent. */
  readonly caseInsensitive?: boolean;
  /**
   * Under `holdfast exec`, the broker's own run of a required command: a shell call's pass counts
   * for a commit-order rule only when this passes on the same tree (run-confirmation.ts).
   */
  readonly confirmRun?: ConfirmRun;
}
