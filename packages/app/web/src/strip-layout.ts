export interface StripRound {
  readonly target: string;
}

interface StripBand {
  readonly target: string;
  /** Top of the band's label. */
  readonly y: number;
  readonly rounds: number;
}

export interface StripLayout {
  readonly width: number;
  readonly height: number;
  /** Side of one cell in CSS pixels. */
  readonly cell: number;
  readonly bands: readonly StripBand[];
  /** Per round (by its index in the run): the top-left corner of its told cell; held sits below it. */
  readonly x: Int32Array;
  readonly y: Int32Array;
}

export const LABEL_HEIGHT = 16;
const CELL_GAP = 1;
const ARM_GAP = 1;
const LINE_GAP = 4;
const BAND_GAP = 8;

/** Cells shrink as the run grows, so a run of thousands of rounds still fits on a screen or two. */
export function cellSizeFor(rounds: number): number {
  if (rounds <= 120) return 14;
  if (rounds <= 600) return 10;
  if (rounds <= 2000) return 7;
  return 5;
}

/**
 * Where each round's two cells go: one band per target (in the given order, then any other seen),
 * rounds in run order, wrapped to the width. Told is the upper cell of a column, held the lower.
 */
export function layoutStrip(rounds: readonly StripRound[], targets: readonly string[], width: number): StripLayout {
  const cell = cellSizeFor(rounds.length);
  const pitch = cell + CELL_GAP;
  const columns = Math.max(1, Math.floor((Math.max(width, pitch) + CELL_GAP) / pitch));
  const lineHeight = cell * 2 + ARM_GAP + LINE_GAP;

  const order = [...targets];
  const byTarget = new Map<string, number[]>();
  for (const target of order) byTarget.set(target, []);
  rounds.forEach((round, index) => {
    let members = byTarget.get(round.target);
    if (members === undefined) {
      members = [];
      byTarget.set(round.target, members);
      order.push(round.target);
    }
    members.push(index);
  });

  const x = new Int32Array(rounds.length);
  const y = new Int32Array(rounds.length);
  const bands: StripBand[] = [];
  let top = 0;
  for (const target of order) {
    const members = byTarget.get(target) ?? [];
    bands.push({ target, y: top, rounds: members.length });
    const first = top + LABEL_HEIGHT;
    members.forEach((roundIndex, position) => {
      x[roundIndex] = (position % columns) * pitch;
      y[roundIndex] = first + Math.floor(position / columns) * lineHeight;
    });
    const lines = Math.max(1, Math.ceil(members.length / columns));
    top = first + lines * lineHeight + BAND_GAP;
  }
  return { width: Math.max(width, pitch), height: Math.max(top - BAND_GAP, LABEL_HEIGHT), cell, bands, x, y };
}

/** The round and arm under a point, if any. */
export function hitTest(layout: StripLayout, pointX: number, pointY: number): { index: number; arm: 'told' | 'held' } | undefined {
  const { cell } = layout;
  for (let index = 0; index < layout.x.length; index++) {
    const left = layout.x[index] ?? 0;
    const top = layout.y[index] ?? 0;
    if (pointX < left || pointX >= left + cell) continue;
    if (pointY >= top && pointY < top + cell) return { index, arm: 'told' };
    if (pointY >= top + cell + ARM_GAP && pointY < top + 2 * cell + ARM_GAP) return { index, arm: 'held' };
  }
  return undefined;
}

export function heldTop(layout: StripLayout, index: number): number {
  return (layout.y[index] ?? 0) + layout.cell + ARM_GAP;
}
