import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs` while `active`; a clock for countdowns, not a poll. */
export function useNow(active: boolean, intervalMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the clock is an outside system: it must read the time the moment it starts, not a tick later
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
