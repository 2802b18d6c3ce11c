/** How the console's tables show values: short, readable, never "[object Object]", and the input itself when unreadable. */
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDateTime,
  formatTime,
  formatValue,
  shortId,
  statusBadgeClass,
} from '../../../console/src/ui/format.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    ['1572864', '1.5 MB'],
    [undefined, '—'],
    ['not a size', '—'],
  ])('%j is %s', (value, text) => {
    expect(formatBytes(value)).toBe(text);
  });
});

describe('formatValue', () => {
  it.each([
    [undefined, '—'],
    [null, '—'],
    ['', '—'],
    [true, 'Yes'],
    [false, 'No'],
    [42, '42'],
    [['a', 2, true], 'a, 2, Yes'],
    [{ _id: 'i1', title: 'Dune' }, 'Dune'],
    [{ _id: 'i1', name: 'Ann' }, 'Ann'],
    [{ _id: 'i1' }, 'i1'],
    [{ x: 1 }, '{"x":1}'],
  ])('%j is %s', (value, text) => {
    expect(formatValue(value)).toBe(text);
  });

  it('a bigint is its digits', () => {
    expect(formatValue(10n)).toBe('10');
  });

  it('a date at midnight UTC is a calendar date, any other a moment', () => {
    const day = new Date(Date.UTC(2024, 0, 2));
    const moment = new Date(Date.UTC(2024, 0, 2, 15, 30));
    expect(formatValue(day)).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(day),
    );
    expect(formatValue(moment)).toBe(formatDateTime(moment));
  });
});

describe('dates and times', () => {
  it('nothing is a dash, and text that is no date is shown as it is', () => {
    for (const format of [formatDateTime, formatTime]) {
      expect(format(undefined)).toBe('—');
      expect(format('')).toBe('—');
      expect(format('soon')).toBe('soon');
    }
  });

  it('a date given as text, a number or a Date reads the same', () => {
    const when = Date.UTC(2024, 5, 1, 12);
    expect(formatDateTime(new Date(when).toISOString())).toBe(formatDateTime(when));
    expect(formatTime(new Date(when))).toBe(formatTime(when));
  });
});

describe('shortId and statusBadgeClass', () => {
  it('shortens only ids longer than 10 characters', () => {
    expect(shortId('0123456789')).toBe('0123456789');
    expect(shortId('0123456789a')).toBe('01234567…');
    expect(shortId(undefined)).toBe('—');
  });

  it.each([
    [200, 'badge-ok'],
    [399, 'badge-ok'],
    [404, 'badge-warn'],
    [500, 'badge-danger'],
    [undefined, 'badge-danger'],
  ])('status %j is %s', (status, badge) => {
    expect(statusBadgeClass(status)).toBe(badge);
  });
});
