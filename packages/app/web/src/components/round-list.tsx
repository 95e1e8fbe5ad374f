import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import type { RoundState } from '@holdfast/lab/browser';
import { VerdictBadge } from './verdict-badge.js';

const ROW_HEIGHT = 28;

interface RoundListProps {
  rounds: readonly RoundState[];
  selectedRoundId: string | undefined;
  onSelect: (roundId: string) => void;
}

const PAGE = 10;

/** Where a list key moves the selection from `index` (of `count`), or undefined for any other key. */
function listKeyTarget(key: string, index: number, count: number): number | undefined {
  if (count === 0) return undefined;
  const from = index < 0 ? -1 : index;
  switch (key) {
    case 'ArrowDown':
      return Math.min(count - 1, from + 1);
    case 'ArrowUp':
      return Math.max(0, from - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'PageDown':
      return Math.min(count - 1, from + PAGE);
    case 'PageUp':
      return Math.max(0, from - PAGE);
    default:
      return undefined;
  }
}

/**
 * Every round shown; only the visible rows exist in the DOM, so 5,000 rounds scroll smoothly. A
 * listbox per the ARIA practices: one tab stop, arrows, Home/End and Page keys move the selection,
 * the selected row is the active descendant.
 */
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
    // Scroll only when the selection changes, not on every new round (the virtualizer is one object for the list's life).
  }, [selectedIndex, virtualizer]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = listKeyTarget(event.key, selectedIndex, rounds.length);
    const round = next === undefined ? undefined : rounds[next];
    if (round === undefined) return;
    event.preventDefault();
    onSelect(round.roundId);
  };

  return (
    <div className="round-list" data-testid="round-list" data-count={rounds.length}>
      <div className="round-row round-head" aria-hidden="true">
        <span>#</span>
        <span>target</span>
        <span>task</span>
        <span>rep</span>
        <span>told</span>
        <span>held</span>
      </div>
      <div
        ref={scroller}
        className="round-scroll"
        role="listbox"
        aria-label={`Rounds: target, task, repetition, told verdict, held verdict (${rounds.length})`}
        tabIndex={0}
        aria-activedescendant={selectedIndex >= 0 ? `round-option-${selectedIndex}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="round-listbox"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const round = rounds[item.index];
            if (round === undefined) return null;
            return (
              <div
                role="option"
                aria-selected={round.roundId === selectedRoundId}
                id={`round-option-${item.index}`}
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
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
