import type { Action, CheckResult, Enforcement, Rulebook } from '@holdfast/core/contract';
import { boundNativeMemory, checkReads, enforcementOf, rulesDecidedAt, undecodableResults, withOnlyRules } from '@holdfast/core/rules';
import type { CheckActions } from '../decide/index.js';
import type { ChangedFile, FileRead, RangeChange } from '../git/index.js';

/** One rule one change broke, with where, as far as the check said. */
export interface VerifyFinding {
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
  /** The file the broken action wrote or deleted. */
  readonly path: string | undefined;
  /** The line the check named ("at line 3"), when it named one. */
  readonly line: number | undefined;
  /** The rule's enforcement: a `warn` finding is reported (SARIF level warning) and fails nothing. */
  readonly level: Enforcement;
}

/** A finding with the position of its rule in the rulebook: a file's findings are in rule order, whichever pass found them. */
interface Ranked {
  readonly order: number;
  readonly finding: VerifyFinding;
}

/** What the rules that read one file alone said of it: the same in every change that writes the same bytes at the same path. */
interface FileVerdict {
  /** Refusals of the file itself: not text where a content rule reads it, a link out of the repository. */
  readonly leading: readonly VerifyFinding[];
  readonly findings: readonly Ranked[];
  /** A file above the limit that looks like text: each secret rule that would have read it and has not said so already. */
  readonly trailing: readonly VerifyFinding[];
}

/** How much text one round of a rule that reads several files at once parses together: its syntax trees stay in memory until it ends. */
const BATCH_TEXT = 512 * 1024;
/**
 * Verdicts kept by what the file holds (path, mode, blob, attributes), most recently used last. The final
 * tree's files are mostly the last versions the commits wrote, and a revert or a merge writes a blob
 * judged before: each is judged once. Bounded, so memory does not grow with the range (a few hundred
 * bytes each).
 */
const KEPT_VERDICTS = 16_384;

const LINE = / at line (\d+)\b/;

function findingOf(result: CheckResult, path: string, rulebook: Rulebook): VerifyFinding {
  const line = LINE.exec(result.detail)?.[1];
  return {
    rule: result.rule,
    name: result.name,
    detail: result.detail,
    path,
    line: line === undefined ? undefined : Number(line),
    level: enforcementOf(rulebook, result.rule),
  };
}

function mebibytes(size: number): string {
  return `${(size / (1024 * 1024)).toFixed(1)} MiB`;
}

function rulesReading(rulebook: Rulebook, keep: (reads: ReturnType<typeof checkReads>) => boolean): Rulebook {
  return withOnlyRules(
    rulebook,
    rulebook.rules.filter((rule) => keep(checkReads(rule.check))),
  );
}

/**
 * Judges changes as the git hooks do (contentFailures: every rule but the order rules, a file that is
 * not text refused by each content rule that reaches it, a committed link out of the repository
 * refused), one file at a time: the rules that read a file alone judge it alone, once per distinct
 * content across every change; the rules that read paths judge the change's list without any text.
 * Only a rule that reads several files at once (dependency, custom) sees texts together, in rounds of
 * about BATCH_TEXT. So no change's texts are ever all held, and a file above the limit is never read.
 */
export class ChangeJudge {
  readonly #rulebook: Rulebook;
  readonly #checkActions: CheckActions;
  readonly #limit: number;
  readonly #perFile: Rulebook;
  readonly #perChange: Rulebook;
  readonly #changeReadsText: boolean;
  readonly #order: ReadonlyMap<string, number>;
  readonly #commitTimed: ReadonlySet<string>;
  readonly #secretRules: Rulebook['rules'];
  readonly #verdicts = new Map<string, FileVerdict>();

  constructor(rulebook: Rulebook, checkActions: CheckActions, limit: number) {
    this.#rulebook = rulebook;
    this.#checkActions = checkActions;
    this.#limit = limit;
    this.#perFile = rulesReading(rulebook, (reads) => reads === 'file');
    this.#perChange = rulesReading(rulebook, (reads) => reads !== 'file');
    this.#changeReadsText = this.#perChange.rules.some((rule) => checkReads(rule.check) === 'round');
    this.#order = new Map(rulebook.rules.map((rule, index) => [rule.id, index]));
    this.#commitTimed = rulesDecidedAt(rulebook, 'commit');
    this.#secretRules = rulebook.rules.filter((rule) => rule.check.kind === 'secret');
  }

  /** One change's findings: each file's in action order (its refusals, then by rule), then the files too large to read. */
  async judge(change: RangeChange): Promise<VerifyFinding[]> {
    const { files } = change;
    if (files.length === 0) return [];
    const actions: Action[] = files.map((file) =>
      file.blob === undefined ? { type: 'delete', path: file.path } : { type: 'write', path: file.path, content: '' },
    );
    const byChange: Ranked[][] = files.map(() => []);
    let batch = new Map<number, string>();
    let batchSize = 0;
    const flush = async (): Promise<void> => {
      if (this.#perChange.rules.length > 0) {
        // Every action is in the round (a rule such as R3 reads the whole list); only the batch's carry their text, and only their results are kept.
        const round = this.#changeReadsText
          ? actions.map((action, index) => (action.type === 'write' ? { ...action, content: batch.get(index) ?? '' } : action))
          : actions;
        for (const result of await this.#checkActions(round, change.existedBefore, this.#perChange)) {
          if (result.ok || this.#commitTimed.has(result.rule) || (this.#changeReadsText && !batch.has(result.actionIndex))) continue;
          const file = files[result.actionIndex];
          if (file !== undefined)
            byChange[result.actionIndex]?.push({ order: this.#order.get(result.rule) ?? 0, finding: findingOf(result, file.path, this.#rulebook) });
        }
      }
      batch = new Map();
      batchSize = 0;
    };
    const keys = files.map((file) => change.key(file));
    const verdicts: (FileVerdict | undefined)[] = keys.map((key) => this.#verdicts.get(key));
    const judge = async (index: number, read: FileRead | undefined): Promise<void> => {
      const file = files[index] as ChangedFile;
      if (verdicts[index] === undefined) {
        verdicts[index] = await this.#fileVerdict(file, read);
        await boundNativeMemory();
      }
      if (!this.#changeReadsText) return;
      const text = read?.kind === 'text' ? read.text : '';
      if (batchSize > 0 && batchSize + text.length > BATCH_TEXT) await flush();
      batch.set(index, text);
      batchSize += text.length;
    };
    // A file already judged is not read again, unless a rule reads several texts at once; deletes have nothing to read.
    const unread = files.flatMap((file, index) => (file.blob !== undefined && (verdicts[index] === undefined || this.#changeReadsText) ? [index] : []));
    const position = new Map(unread.map((index) => [files[index] as ChangedFile, index]));
    let next = 0;
    for await (const { file, read } of change.read(unread.map((index) => files[index] as ChangedFile))) {
      const index = position.get(file) as number;
      // The files without a read before this one (deletes, files judged before) keep their place in the rounds.
      for (; next < index; next += 1) if (!position.has(files[next] as ChangedFile)) await judge(next, undefined);
      await judge(index, read);
      next = index + 1;
    }
    for (; next < files.length; next += 1) await judge(next, undefined);
    if (!this.#changeReadsText || batch.size > 0) await flush();
    const findings: VerifyFinding[] = [];
    const judged = verdicts as FileVerdict[];
    judged.forEach((verdict, index) => this.#keep(keys[index] as string, verdict));
    for (const [index, verdict] of judged.entries()) {
      findings.push(...verdict.leading);
      const ranked = [...verdict.findings, ...(byChange[index] ?? [])].sort((left, right) => left.order - right.order);
      for (const each of ranked) findings.push(each.finding);
    }
    for (const verdict of judged) findings.push(...verdict.trailing);
    return findings;
  }

  #keep(key: string, verdict: FileVerdict): void {
    this.#verdicts.delete(key);
    this.#verdicts.set(key, verdict);
    if (this.#verdicts.size > KEPT_VERDICTS) this.#verdicts.delete(this.#verdicts.keys().next().value as string);
  }

  async #fileVerdict(file: ChangedFile, read: FileRead | undefined): Promise<FileVerdict> {
    const { path } = file;
    const action: Action = read === undefined ? { type: 'delete', path } : { type: 'write', path, content: read.kind === 'text' ? read.text : '' };
    const why =
      read?.kind === 'too-large'
        ? `too large to judge (${mebibytes(read.size)}; verify reads files up to ${mebibytes(this.#limit)})`
        : read?.kind === 'text'
          ? read.undecodable
          : undefined;
    const leading =
      why === undefined ? [] : undecodableResults(this.#rulebook, [action], new Map([[path, why]])).map((result) => findingOf(result, path, this.#rulebook));
    if (read?.kind === 'text' && read.link !== undefined)
      leading.push({ rule: 'GATE', name: 'LINK', detail: `GATE LINK: ${path} is ${read.link}.`, path, line: undefined, level: 'block' });
    const findings: Ranked[] = [];
    if (this.#perFile.rules.length > 0) {
      for (const result of await this.#checkActions([action], [], this.#perFile)) {
        if (!result.ok) findings.push({ order: this.#order.get(result.rule) ?? 0, finding: findingOf(result, path, this.#rulebook) });
      }
    }
    const trailing: VerifyFinding[] = [];
    if (read?.kind === 'too-large' && read.text && why !== undefined) {
      const said = [...leading, ...findings.map((each) => each.finding)];
      for (const rule of this.#secretRules) {
        if (said.some((finding) => finding.rule === rule.id)) continue;
        trailing.push({
          rule: rule.id,
          name: rule.name,
          detail: `${rule.id} ${rule.name}: ${path} is ${why}.`,
          path,
          line: undefined,
          level: enforcementOf(this.#rulebook, rule.id),
        });
      }
    }
    return { leading, findings, trailing };
  }
}
