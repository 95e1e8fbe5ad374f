import { useEffect, useMemo, useRef, useState } from 'react';
import type { Arm, ArmResult, Verdict } from '@holdfast/core/browser';
import type { RoundState } from '@holdfast/lab/browser';
import { LABEL_HEIGHT, hitTest, layoutStrip } from '../strip-layout.js';
import { drawStrip } from '../strip-draw.js';
import { StripTable, stripCounts, stripSummary } from './strip-table.js';
import { SESSION_VERDICTS, VERDICT_COLOR, VERDICT_LABEL, VERDICT_MARK, VERDICT_ORDER } from '../verdict-style.js';

interface VerdictStripProps {
  rounds: readonly RoundState[];
  targets: readonly string[];
  selectedRoundId: string | undefined;
  onSelect: (roundId: string) => void;
  /** Shows the rounds of one target, arm and verdict in the round list (from the strip's table). */
  onFilter: (target: string, arm: Arm, verdict: Verdict) => void;
}

/**
 * One cell per round and arm on a canvas: thousands of rounds are a few thousand rectangles, not
 * thousands of DOM nodes. `data-drawn` tells tests and the benchmark how many rounds are painted,
 * `data-first-cell` where the first round's told cell is (x,y in CSS pixels), for a click.
 */
export function VerdictStrip({ rounds, targets, selectedRoundId, onSelect, onFilter }: VerdictStripProps) {
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
  const counts = useMemo(() => stripCounts(rounds, targets), [rounds, targets]);
  const hasSessions = useMemo(() => rounds.some((round) => isSessionArm(round.told) || isSessionArm(round.held)), [rounds]);
  const hasWarned = useMemo(() => rounds.some((round) => round.held?.verdict === 'warned'), [rounds]);

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
    drawStrip(context, layout, rounds, selectedRoundId === undefined ? -1 : rounds.findIndex((round) => round.roundId === selectedRoundId));
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
        <Legend sessions={hasSessions} warned={hasWarned} />
        <span className="hover-note" data-testid="strip-hover">
          {hover ?? ' '}
        </span>
      </div>
      <div ref={wrapper} className="strip-canvas-wrap">
        {rounds.length === 0 && targets.length === 0 ? <p className="muted">No rounds yet.</p> : null}
        <canvas
          ref={canvas}
          data-testid="verdict-strip"
          data-rounds={rounds.length}
          data-drawn={drawn}
          role="img"
          aria-label={stripSummary(counts, rounds.length)}
          data-first-cell={rounds.length > 0 ? `${(layout.x[0] ?? 0) + layout.cell / 2},${(layout.y[0] ?? 0) + layout.cell / 2}` : undefined}
          style={{ minHeight: LABEL_HEIGHT }}
          onClick={(event) => {
            const hit = roundAt(event);
            if (hit?.round !== undefined) onSelect(hit.round.roundId);
          }}
          onMouseMove={(event) => {
            const hit = roundAt(event);
            const result = hit?.round === undefined ? undefined : hit.arm === 'told' ? hit.round.told : hit.round.held;
            setHover(
              hit?.round === undefined
                ? undefined
                : `${hit.round.target} · ${hit.round.task} · rep ${hit.round.rep + 1} · ${hit.arm}: ${result?.verdict ?? 'running'}`,
            );
          }}
          onMouseLeave={() => setHover(undefined)}
        />
      </div>
      <details className="strip-as-table">
        <summary>Verdicts as a table</summary>
        <StripTable rows={counts} onFilter={onFilter} />
      </details>
    </section>
  );
}

/**
 * `sessions`: the run has loop or agent arms, so the verdicts only sessions reach are listed too. `warned`: a held arm
 * let a rule at warn through, so that verdict is listed (a run whose rules all block never shows it).
 */
function Legend({ sessions = false, warned = false }: { sessions?: boolean; warned?: boolean }) {
  return (
    <ul className="legend">
      {VERDICT_ORDER.filter((verdict) => (sessions || !SESSION_VERDICTS.has(verdict)) && (warned || verdict !== 'warned')).map((verdict) => (
        <li key={verdict}>
          <span className="swatch" data-verdict={verdict} data-mark={VERDICT_MARK[verdict] !== undefined} style={{ background: swatchBackground(verdict) }} />
          {VERDICT_LABEL[verdict]}
        </li>
      ))}
    </ul>
  );
}

/** A loop or agent arm (the summary view keeps its mode but not its session). */
function isSessionArm(result: ArmResult | undefined): boolean {
  return result?.session !== undefined || result?.mode === 'loop' || result?.mode === 'agent';
}

/** A legend swatch: the verdict's colour, with its slash where the strip draws one. */
function swatchBackground(verdict: Verdict): string {
  const mark = VERDICT_MARK[verdict];
  const color = VERDICT_COLOR[verdict];
  return mark === undefined ? color : `linear-gradient(to top right, ${color} 40%, ${mark} 40%, ${mark} 60%, ${color} 60%)`;
}
