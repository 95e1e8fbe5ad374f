import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { RoundState } from '../../../src/store/browser.js';
import { VerdictBadge } from './verdict-badge.js';

const ROW_HEIGHT = 28;

interface RoundListProps {
  rounds: readonly RoundState[];
  selectedRoundId: string | undefined;
  onSelect: (roundId: string) => void;
}

/** Every round of the run; only the visible rows exist in the DOM, so 5,000 rounds scroll smoothly. */
export function RoundList({ rounds, selectedRoundId, onSelect }: RoundListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rounds.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  const selectedIndex = selectedRoundId === undefined ? -1 : rounds.findIndex((round) => round.roundId === selectedRoundId);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    // Scroll only when the selection changes, not on every new round.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedIndex]);

  return (
    <div className="round-list" data-testid="round-list" data-count={rounds.length}>
      <div className="round-row round-head">
        <span>#</span>
        <span>target</span>
        <span>task</span>
        <span>rep</span>
        <span>told</span>
        <span>held</span>
      </div>
      <div ref={scroller} className="round-scroll">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const round = rounds[item.index];
            if (round === undefined) return null;
            return (
              <button
                type="button"
                key={round.roundId}
                data-testid="round-row"
                data-round-id={round.roundId}
                className={`round-row${round.roundId === selectedRoundId ? ' selected' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                onClick={() => onSelect(round.roundId)}
              >
                <span className="muted">{item.index + 1}</span>
                <span>{round.target}</span>
                <span>{round.task}</span>
                <span>{round.rep + 1}</span>
                <span>
                  <VerdictBadge verdict={round.told?.verdict} />
                </span>
                <span>
                  <VerdictBadge verdict={round.held?.verdict} />
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
