import type { Verdict } from '@holdfast/core/browser';
import { PENDING_COLOR, VERDICT_COLOR } from '../verdict-style.js';

const DARK_TEXT: ReadonlySet<Verdict> = new Set(['declined', 'violated', 'blocked', 'unparseable', 'recovered', 'warned']);

export function VerdictBadge({ verdict }: { verdict: Verdict | undefined }) {
  if (verdict === undefined) {
    return (
      <span className="badge" style={{ background: PENDING_COLOR, color: '#495057' }}>
        running
      </span>
    );
  }
  return (
    <span className="badge" data-verdict={verdict} style={{ background: VERDICT_COLOR[verdict], color: DARK_TEXT.has(verdict) ? '#212529' : '#fff' }}>
      {verdict}
    </span>
  );
}
