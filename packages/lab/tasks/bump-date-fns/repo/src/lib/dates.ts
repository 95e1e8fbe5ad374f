// Every date calculation goes through here so a date-fns upgrade touches one file.
import { addDays, differenceInCalendarDays, format, parseISO } from 'date-fns';

export function dueDate(issuedOn: string, termsDays: number): string {
  return format(addDays(parseISO(issuedOn), termsDays), 'yyyy-MM-dd');
}

export function daysOverdue(dueOn: string, today: string): number {
  return Math.max(0, differenceInCalendarDays(parseISO(today), parseISO(dueOn)));
}

export function invoiceDateLabel(isoDate: string): string {
  return format(parseISO(isoDate), 'd MMM yyyy');
}
