import { InputError } from '@holdfast/core/contract';

export type OnboardErrorCode =
  'E_TASK_ACCEPTANCE' | 'E_TASK_REPO' | 'E_TASK_REPO_TOO_LARGE' | 'E_TASK_REPO_INCOMPLETE' | 'E_TASK_OUT' | 'E_RULE_FILE' | 'E_INIT' | 'E_MODEL_DRAFT';

/** Making a task or a rulebook from someone's repository went wrong; the message says what to do. */
export class OnboardError extends InputError {
  declare readonly code: OnboardErrorCode;

  constructor(code: OnboardErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
