import { daysOverdue } from '../lib/dates.ts';

/** The badge next to an invoice in the list. */
export function dueBadge(dueOn: string, today: string): string {
  const days = daysOverdue(dueOn, today);
  return days === 0 ? 'due' : `${days} days overdue`;
}
