/**
 * `2026-11-24` (a day of a date field, in the user's time zone) → the ISO instant it starts or ends: the date
 * filters of the Trades list and the audit log.
 */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
