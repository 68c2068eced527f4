import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';
import { formatInstant } from './format-time';

// 01:32 UTC on 10 March 2026: 02:32 in Paris (CET), 10:32 in Tokyo.
const AT = '2026-03-10T01:32:05Z';

describe('formatInstant: one formatter, in the user’s zone (issue 21)', () => {
  it('reads an instant in the chosen zone, in every shape', () => {
    expect(formatInstant(AT, { timeZone: 'Europe/Paris' })).toBe('Mar 10, 2026, 2:32 AM');
    expect(formatInstant(AT, { timeZone: 'Asia/Tokyo', locale: 'fr-FR' })).toBe('10 mars 2026, 10:32');
    expect(formatInstant(AT, { timeZone: 'Asia/Tokyo', style: 'seconds' })).toBe('Mar 10, 10:32:05 AM');
    expect(formatInstant(AT, { timeZone: 'Asia/Tokyo', style: 'date' })).toBe('Mar 10, 2026');
    // The dateTime formatter every screen already used says the same.
    expect(formatDateTime(AT, { timeZone: 'Europe/Paris' })).toBe(
      formatInstant(AT, { timeZone: 'Europe/Paris' }),
    );
  });

  it('drops the year in the compact shape only when it is this year in that zone', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(formatInstant(AT, { timeZone: 'Europe/Paris', style: 'compact', now })).toBe('Mar 10, 2:32 AM');
    // 23:30 UTC on 31 Dec 2025 is already 2026 in Tokyo: no year there, the year in New York.
    const newYear = '2025-12-31T23:30:00Z';
    expect(formatInstant(newYear, { timeZone: 'Asia/Tokyo', style: 'compact', now })).toBe('Jan 1, 8:30 AM');
    expect(formatInstant(newYear, { timeZone: 'America/New_York', style: 'compact', now })).toBe(
      'Dec 31, 2025, 6:30 PM',
    );
  });

  it('says a missing or broken value as a dash, and an unknown zone as the browser’s', () => {
    expect(formatInstant(null)).toBe('—');
    expect(formatInstant('not a date')).toBe('—');
    expect(formatInstant(AT, { timeZone: 'Mars/Olympus' })).toBe(formatInstant(AT));
  });
});
