import type { Arm, ArmEndEvent, RunEvent } from '@holdfast/core/contract';

interface SeenReply {
  readonly arm: Arm;
  /** The reply as the arm produced it, to compare the other arm's with. */
  readonly raw: string;
  /** The reply as it stands in the file (after redaction, perhaps cut), to restore a reference with. */
  readonly stored: string;
  /** The whole reply's size when `stored` was cut (`rawBytes`). */
  readonly storedBytes: number | undefined;
}

function withRaw(event: ArmEndEvent, raw: string, rawSameAs: Arm | undefined, rawBytes?: number): ArmEndEvent {
  const generation = event.result.generation!;
  const { rawSameAs: _dropped, rawBytes: _bytes, ...rest } = generation;
  const reference = rawSameAs !== undefined ? { rawSameAs } : rawBytes !== undefined ? { rawBytes } : {};
  return { ...event, result: { ...event.result, generation: { ...rest, raw, ...reference } } };
}

/**
 * The two arms of a round are separate generations, and at temperature 0 (or from a proxy, or a
 * replies file) they are often the same text: a 50 MB reply stored in both arm-end events made a
 * 100 MB file. The writer stores the second arm's identical reply as a reference (`raw` empty,
 * `rawSameAs` naming the arm that holds it); every reader restores it with `ReplyReferences`. It
 * keeps only the rounds whose second arm has not been seen yet.
 */
export class ReplyReferences {
  private readonly open = new Map<string, SeenReply>();

  /**
   * Writing: the event to store (the reference, when this arm's reply equals the other arm's) and
   * `restore`, which turns the event as stored (perhaps redacted) back into the whole one.
   */
  refer(event: RunEvent): { stored: RunEvent; restore: (stored: RunEvent) => RunEvent } {
    const same = (stored: RunEvent) => stored;
    if (event.type === 'round-start') this.open.delete(event.roundId);
    if (event.type !== 'arm-end' || event.result.generation === undefined) return { stored: event, restore: same };
    const raw = event.result.generation.raw;
    const other = this.open.get(event.roundId);
    if (other === undefined || other.arm === event.result.arm) {
      return {
        stored: event,
        restore: (stored) => {
          if (stored.type === 'arm-end') {
            const generation = stored.result.generation;
            this.open.set(event.roundId, { arm: event.result.arm, raw, stored: generation?.raw ?? raw, storedBytes: generation?.rawBytes });
          }
          return stored;
        },
      };
    }
    this.open.delete(event.roundId);
    if (raw === '' || raw !== other.raw) return { stored: event, restore: same };
    return {
      stored: withRaw(event, '', other.arm),
      restore: (stored) => (stored.type === 'arm-end' ? withRaw(stored, other.stored, undefined, other.storedBytes) : stored),
    };
  }

  /** Reading, event by event in file order: an arm-end whose reply is a reference gets the reply back. */
  resolve(event: RunEvent): RunEvent {
    if (event.type === 'round-start') this.open.delete(event.roundId);
    if (event.type !== 'arm-end' || event.result.generation === undefined) return event;
    const generation = event.result.generation;
    const other = this.open.get(event.roundId);
    if (other === undefined || other.arm === event.result.arm) {
      if (generation.rawSameAs === undefined) {
        this.open.set(event.roundId, { arm: event.result.arm, raw: generation.raw, stored: generation.raw, storedBytes: generation.rawBytes });
      }
      return event;
    }
    this.open.delete(event.roundId);
    // A reference whose arm is missing (a cut file) stays as it is: raw empty, rawSameAs naming what is missing.
    return generation.rawSameAs === other.arm ? withRaw(event, other.raw, undefined, other.storedBytes) : event;
  }
}
