import type { SgRoot } from '@ast-grep/napi';

/** One credential found in one file. Positions are 1-based; `masked` never holds the whole secret. */
export interface SecretFinding {
  /** What was found, in words ("AWS access key id", "password literal"). */
  detector: string;
  line: number;
  column: number;
  /** A short prefix of the secret and an ellipsis ("AKIA…"). */
  masked: string;
  /** A sentence naming the detector, the masked value and the position. */
  message: string;
}

export type SecretDetectorSet = 'secretlint-recommend' | 'generic-assignment';

export interface SecretScanOptions {
  detectors: readonly SecretDetectorSet[];
  /** Shannon entropy (bits per character) a literal needs before the generic detector calls it a secret. */
  minEntropy: number;
  /** A finding whose secret value matches one of these is suppressed. */
  allowlist: readonly { test(text: string): boolean }[];
  /**
   * The syntax tree of a content, from the check call's parse of it when another rule (a code check)
   * reads the same file: folding then parses nothing again. Undefined, or an answer of undefined,
   * and folding parses the content itself.
   */
  parsed?: (language: 'typescript' | 'tsx' | 'javascript', content: string) => SgRoot | undefined;
}

/** A detector's hit before positions are resolved: the span of the secret value in the content. */
export interface DetectedSecret {
  detector: string;
  start: number;
  end: number;
  /** The content's text over the span: what a redaction replaces. */
  value: string;
  /** The secret as the detector read it, when that is not the span's text (a folded expression, a decoded literal). */
  decoded?: string;
}
