import type { ArmResult } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { heldTop } from './strip-layout.js';
import type { StripLayout } from './strip-layout.js';
import { PENDING_COLOR, VERDICT_COLOR, VERDICT_MARK } from './verdict-style.js';

function colorOf(result: ArmResult | undefined): string {
  return result === undefined ? PENDING_COLOR : VERDICT_COLOR[result.verdict];
}

/** A band's label, as long as the width allows: the longest of these that fits is drawn, so none is cut at the edge. */
function bandLabel(target: string, rounds: number, fits: (text: string) => boolean): string {
  const candidates = [
    `${target}  ·  ${rounds} rounds  ·  upper row told, lower row held`,
    `${target}  ·  ${rounds} rounds  ·  told above held`,
    `${target}  ·  ${rounds} rounds`,
  ];
  return candidates.find(fits) ?? target;
}

/** Cells of one colour, each coded as round index × 2 + arm (0 told, 1 held). */
function byColour(rounds: readonly RoundState[], colourOf: (result: ArmResult | undefined) => string | undefined): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  rounds.forEach((round, index) => {
    for (const [arm, result] of [
      [0, round.told],
      [1, round.held],
    ] as const) {
      const colour = colourOf(result);
      if (colour === undefined) continue;
      const list = groups.get(colour) ?? [];
      list.push(index * 2 + arm);
      groups.set(colour, list);
    }
  });
  return groups;
}

function cellTop(layout: StripLayout, code: number): number {
  const index = code >> 1;
  return code & 1 ? heldTop(layout, index) : (layout.y[index] ?? 0);
}

/**
 * Paints the strip: band labels, one cell per round and arm (batched by colour: one fill style
 * change per verdict instead of one per cell), the slash of each verdict where a violation
 * landed, and the selected round's outline.
 */
export function drawStrip(context: CanvasRenderingContext2D, layout: StripLayout, rounds: readonly RoundState[], selected: number): void {
  context.clearRect(0, 0, layout.width, layout.height);
  context.font = '600 11px system-ui, sans-serif';
  context.textBaseline = 'top';
  context.fillStyle = '#343a40';
  for (const band of layout.bands) {
    context.fillText(
      bandLabel(band.target, band.rounds, (text) => context.measureText(text).width <= layout.width),
      0,
      band.y + 2,
    );
  }
  const cell = layout.cell;
  for (const [colour, cells] of byColour(rounds, colorOf)) {
    context.fillStyle = colour;
    context.beginPath();
    for (const code of cells) context.rect(layout.x[code >> 1] ?? 0, cellTop(layout, code), cell, cell);
    context.fill();
  }
  context.lineWidth = Math.max(1, cell / 5);
  for (const [colour, cells] of byColour(rounds, (result) => (result === undefined ? undefined : VERDICT_MARK[result.verdict]))) {
    context.strokeStyle = colour;
    context.beginPath();
    for (const code of cells) {
      const left = layout.x[code >> 1] ?? 0;
      const top = cellTop(layout, code);
      context.moveTo(left, top + cell);
      context.lineTo(left + cell, top);
    }
    context.stroke();
  }
  if (selected >= 0) {
    context.strokeStyle = '#1c7ed6';
    context.lineWidth = 2;
    context.strokeRect((layout.x[selected] ?? 0) - 1, (layout.y[selected] ?? 0) - 1, cell + 2, cell * 2 + 3);
  }
}
