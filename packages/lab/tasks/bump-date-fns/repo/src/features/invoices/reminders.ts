import { daysOverdue } from '../../lib/dates.ts';

export interface Invoice {
  id: string;
  dueOn: string;
  paid: boolean;
}

/** Invoices that get a reminder today: unpaid and exactly 7, 14 or 30 days overdue. */
export function remindersDue(invoices: Invoice[], today: string): string[] {
  return invoices
    .filter((invoice) => !invoice.paid && [7, 14, 30].includes(daysOverdue(invoice.dueOn, today)))
    .map((invoice) => invoice.id);
}
