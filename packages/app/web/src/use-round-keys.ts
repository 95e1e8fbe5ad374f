import { useEffect } from 'react';
import type { RoundState } from '@holdfast/lab/browser';

/** Whether a key press belongs to a form field (so j/k there type letters). */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName));
}

/** j and k step through the shown rounds from anywhere on the page (not while typing in a field). */
export function useRoundKeys(shownRounds: readonly RoundState[], selectedRoundId: string | undefined, selectRound: (roundId: string) => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.key !== 'j' && event.key !== 'k') || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const index = selectedRoundId === undefined ? -1 : shownRounds.findIndex((round) => round.roundId === selectedRoundId);
      const next = shownRounds[event.key === 'j' ? Math.min(shownRounds.length - 1, index + 1) : Math.max(0, index - 1)];
      if (next === undefined) return;
      event.preventDefault();
      selectRound(next.roundId);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shownRounds, selectedRoundId, selectRound]);
}
