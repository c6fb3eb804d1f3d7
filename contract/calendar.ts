/**
 * A calendar date from its day, month and year, as `YYYY-MM-DD`; null when there is no such day (31.02, 29.02 of a
 * common year, month 13). The one check behind every date typed or read: the date field, the task import, the
 * trip-sheet checks' lists and the API's `isoDate`.
 */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day) || year < 1 || year > 9999) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0–99 to 1900–1999: set the year itself.
  date.setUTCFullYear(year);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
