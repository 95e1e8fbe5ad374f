import { useEffect, useMemo, useRef, useState } from 'react';
import type { ArmResult } from '../../../src/contract/index.js';
import type { RoundState } from '../../../src/store/browser.js';
import { LABEL_HEIGHT, heldTop, hitTest, layoutStrip } from '../strip-layout.js';
import { PENDING_COLOR, SESSION_VERDICTS, VERDICT_COLOR, VERDICT_LABEL, VERDICT_ORDER } from '../verdict-style.js';

interface VerdictStripProps {
  rounds: readonly RoundState[];
  targets: readonly string[];
  selectedRoundId: string | undefined;
  onSelect: (roundId: string) => void;
}

function colorOf(result: ArmResult | undefined): string {
  return result === undefined ? PENDING_COLOR : VERDICT_COLOR[result.verdict];
}

/**
 * One cell per round and arm on a canvas: thousands of rounds are a few thousand rectangles, not
 * thousands of DOM nodes. `data-drawn` tells tests and the benchmark how many rounds are painted,
 * `data-first-cell` where the first round's told cell is (x,y in CSS pixels), for a click.
 */
export function VerdictStrip({ rounds, targets, selectedRoundId, onSelect }: VerdictStripProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [drawn, setDrawn] = useState(0);
  const [hover, setHover] = useState<string | undefined>(undefined);

  useEffect(() => {
    const element = wrapper.current;
    if (element === null) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const layout = useMemo(() => layoutStrip(rounds, targets, Math.max(width, 100)), [rounds, targets, width]);
  const hasSessions = useMemo(() => rounds.some((round) => round.told?.session !== undefined || round.held?.session !== undefined), [rounds]);

  useEffect(() => {
    const element = canvas.current;
    if (element === null || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.ceil(layout.width * ratio);
    element.height = Math.ceil(layout.height * ratio);
    element.style.width = `${layout.width}px`;
    element.style.height = `${layout.height}px`;
    const context = element.getContext('2d');
    if (context === null) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, layout.width, layout.height);
    context.font = '600 11px system-ui, sans-serif';
    context.textBaseline = 'top';
    for (const band of layout.bands) {
      context.fillStyle = '#343a40';
      context.fillText(`${band.target}  ·  ${band.rounds} rounds  ·  upper row told, lower row held`, 0, band.y + 2);
    }
    // Batch by colour: one fill style change per verdict instead of one per cell.
    const byColor = new Map<string, number[]>();
    const add = (color: string, index: number, arm: 0 | 1): void => {
      let list = byColor.get(color);
      if (list === undefined) {
        list = [];
        byColor.set(color, list);
      }
      list.push(index * 2 + arm);
    };
    rounds.forEach((round, index) => {
      add(colorOf(round.told), index, 0);
      add(colorOf(round.held), index, 1);
    });
    const cell = layout.cell;
    for (const [color, cells] of byColor) {
      context.fillStyle = color;
      context.beginPath();
      for (const code of cells) {
        const index = code >> 1;
        const top = code & 1 ? heldTop(layout, index) : (layout.y[index] ?? 0);
        context.rect(layout.x[index] ?? 0, top, cell, cell);
      }
      context.fill();
    }
    const selected = selectedRoundId === undefined ? -1 : rounds.findIndex((round) => round.roundId === selectedRoundId);
    if (selected >= 0) {
      context.strokeStyle = '#1c7ed6';
      context.lineWidth = 2;
      context.strokeRect((layout.x[selected] ?? 0) - 1, (layout.y[selected] ?? 0) - 1, cell + 2, cell * 2 + 3);
    }
    setDrawn(rounds.length);
  }, [layout, rounds, selectedRoundId, width]);

  const roundAt = (event: React.MouseEvent<HTMLCanvasElement>) => {
    const bounds = event.currentTarget.getBoundingClientRect();
    const hit = hitTest(layout, event.clientX - bounds.left, event.clientY - bounds.top);
    return hit === undefined ? undefined : { round: rounds[hit.index], arm: hit.arm };
  };

  return (
    <section className="panel strip" aria-label="Verdict strip">
      <div className="panel-head">
        <h2>Verdicts</h2>
        <Legend sessions={hasSessions} />
        <span className="hover-note" data-testid="strip-hover">{hover ?? ' '}</span>
      </div>
      <div ref={wrapper} className="strip-canvas-wrap">
        {rounds.length === 0 && targets.length === 0 ? <p className="muted">No rounds yet.</p> : null}
        <canvas
          ref={canvas}
          data-testid="verdict-strip"
          data-rounds={rounds.length}
          data-drawn={drawn}
          data-first-cell={rounds.length > 0 ? `${(layout.x[0] ?? 0) + layout.cell / 2},${(layout.y[0] ?? 0) + layout.cell / 2}` : undefined}
          style={{ minHeight: LABEL_HEIGHT }}
          onClick={(event) => {
            const hit = roundAt(event);
            if (hit?.round !== undefined) onSelect(hit.round.roundId);
          }}
          onMouseMove={(event) => {
            const hit = roundAt(event);
            const result = hit?.round === undefined ? undefined : hit.arm === 'told' ? hit.round.told : hit.round.held;
            setHover(hit?.round === undefined ? undefined : `${hit.round.target} · ${hit.round.task} · rep ${hit.round.rep + 1} · ${hit.arm}: ${result?.verdict ?? 'running'}`);
          }}
          onMouseLeave={() => setHover(undefined)}
        />
      </div>
    </section>
  );
}

/** `sessions`: the run has loop or agent arms, so the verdicts only sessions reach are listed too. */
export function Legend({ sessions = false }: { sessions?: boolean }) {
  return (
    <ul className="legend">
      {VERDICT_ORDER.filter((verdict) => sessions || !SESSION_VERDICTS.has(verdict)).map((verdict) => (
        <li key={verdict}>
          <span className="swatch" style={{ background: VERDICT_COLOR[verdict] }} />
          {VERDICT_LABEL[verdict]}
        </li>
      ))}
    </ul>
  );
}
