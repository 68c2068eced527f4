import { describe, expect, it } from 'vitest';
import {
  defaultCurrencyFor,
  formatCurrency,
  formatDecimal,
  formatPercent,
  formatPnl,
  formatPnlPercent,
  signOf,
} from './format';
import { displayCurrency } from './preferences-store';

// French formatting uses narrow no-break spaces; compare on plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('number formats (spec §9)', () => {
  it('formats currency with 2 to 8 decimals', () => {
    expect(formatCurrency(1234.5, { locale: 'en-US' })).toBe('$1,234.50');
    expect(formatCurrency('0.123456789', { locale: 'en-US' })).toBe('$0.12345679');
    expect(plain(formatCurrency(1234.5, { locale: 'fr-FR' }))).toBe('1 234,50 €');
    expect(plain(formatCurrency('0.00012345', { locale: 'fr-FR' }))).toBe('0,00012345 €');
  });

  it('keeps decimal strings exact instead of going through a float', () => {
    expect(formatDecimal('12345678.12345678', { locale: 'en-US' })).toBe('12,345,678.12345678');
    expect(plain(formatDecimal('12345678.12345678', { locale: 'fr-FR' }))).toBe('12 345 678,12345678');
  });

  it('formats decimals with 2 to 8 decimals', () => {
    expect(formatDecimal(3, { locale: 'en-US' })).toBe('3.00');
    expect(formatDecimal(0.1 + 0.2, { locale: 'en-US' })).toBe('0.30');
    expect(plain(formatDecimal(3, { locale: 'fr-FR' }))).toBe('3,00');
  });

  it('formats percentages with exactly 2 decimals, in percent units', () => {
    expect(formatPercent(12.5, { locale: 'en-US' })).toBe('12.50%');
    expect(formatPercent('-3.14159', { locale: 'en-US' })).toBe('-3.14%');
    expect(plain(formatPercent(12.5, { locale: 'fr-FR' }))).toBe('12,50 %');
  });

  it('always shows the sign of a PnL, zero included', () => {
    expect(formatPnl(12.5, { locale: 'en-US', currency: 'USD' })).toBe('+$12.50');
    expect(formatPnl('-3', { locale: 'en-US', currency: 'USD' })).toBe('-$3.00');
    expect(formatPnl(0, { locale: 'en-US', currency: 'USD' })).toBe('+$0.00');
    expect(plain(formatPnl(12.5, { locale: 'fr-FR', currency: 'EUR' }))).toBe('+12,50 €');
    expect(formatPnlPercent(4.2, { locale: 'en-US' })).toBe('+4.20%');
    expect(plain(formatPnlPercent(-4.2, { locale: 'fr-FR' }))).toBe('-4,20 %');
  });

  it('shows a dash for missing or invalid values', () => {
    expect(formatCurrency(undefined)).toBe('—');
    expect(formatDecimal(null)).toBe('—');
    expect(formatPercent('abc')).toBe('—');
    expect(signOf('abc')).toBe(0);
  });

  it('uses USD for English and EUR for French unless the user picked a currency', () => {
    expect(defaultCurrencyFor('en-US')).toBe('USD');
    expect(defaultCurrencyFor('fr-FR')).toBe('EUR');
    expect(formatCurrency(1, { locale: 'fr-FR' })).toContain('€');
    expect(displayCurrency('en-US', null)).toBe('USD');
    expect(displayCurrency('fr-FR', null)).toBe('EUR');
    expect(displayCurrency('fr-FR', 'USD')).toBe('USD');
  });
});
