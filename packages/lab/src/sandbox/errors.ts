import { HoldfastError } from '@holdfast/core/contract';

export type SandboxErrorCode = 'E_SANDBOX_GIT' | 'E_SANDBOX_SETUP' | 'E_SANDBOX_KEEP' | 'E_SANDBOX_ISOLATION';

/** The sandbox machinery itself broke (git failed, a folder could not be made): not the model's doing. */
export class SandboxError extends HoldfastError {
  declare readonly code: SandboxErrorCode;

  constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
