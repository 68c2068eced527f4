import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatMoneyNumber,
  formatPrice,
  formatQuantity,
  stepDecimals,
  usualDecimals,
} from './money';
import { parseLocaleNumber } from './parse-number';

// French formatting uses narrow no-break spaces; compare on plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('one money formatter', () => {
  it('writes a quote amount to its currency’s usual decimals, unit always', () => {
    expect(formatMoney('-2.52708716', 'USDT', { locale: 'en-US' })).toBe('-2.53 USDT');
    expect(formatMoney('0.99950848', 'USDT', { locale: 'en-US' })).toBe('1.00 USDT');
    expect(formatMoney('9596.6912', 'USD', { locale: 'en-US' })).toBe('$9,596.69');
    expect(plain(formatMoney('9596.6912', 'EUR', { locale: 'fr-FR' }))).toBe('9 596,69 €');
    expect(formatMoney('0.0012345678', 'BTC', { locale: 'en-US' })).toBe('0.00123457 BTC');
    expect(formatMoney('1.5', 'eth', { locale: 'en-US' })).toBe('1.500000 ETH');
    expect(plain(formatMoney('1234.5', 'USDT', { locale: 'fr-FR' }))).toBe('1 234,50 USDT');
  });

  it('signs a PnL, zero included, and never rounds a small fee down to nothing', () => {
    expect(formatMoney('1.456', 'USDT', { locale: 'en-US', signDisplay: 'always' })).toBe('+1.46 USDT');
    expect(formatMoney('0', 'USDT', { locale: 'en-US', signDisplay: 'always' })).toBe('+0.00 USDT');
    expect(formatMoney('0.000412', 'USDT', { locale: 'en-US' })).toBe('0.00041 USDT');
    expect(formatMoney(null, 'USDT')).toBe('—');
    expect(formatMoney('abc', 'USDT')).toBe('—');
  });

  it('gives the figure alone for a screen that sets the unit apart', () => {
    expect(formatMoneyNumber('0.99950848', 'USDT', { locale: 'en-US' })).toBe('1.00');
    expect(formatMoneyNumber('-2.52708716', 'usdt', { locale: 'en-US', signDisplay: 'always' })).toBe(
      '-2.53',
    );
    expect(plain(formatMoneyNumber('1234.5', 'USDT', { locale: 'fr-FR' }))).toBe('1 234,50');
    expect(formatMoneyNumber('0.00012345', 'BTC', { locale: 'en-US' })).toBe('0.00012345');
  });

  it('knows the usual decimals and a market step’s', () => {
    expect([usualDecimals('USDT'), usualDecimals('usd'), usualDecimals('BTC'), usualDecimals('XYZ')]).toEqual(
      [2, 2, 8, 8],
    );
    expect([stepDecimals('0.0001'), stepDecimals('1'), stepDecimals(0.00001), stepDecimals('0.010')]).toEqual(
      [4, 0, 5, 2],
    );
  });

  it('writes a quantity to its market’s step with its unit', () => {
    expect(formatQuantity('0.0176', { locale: 'en-US', step: '0.00001', unit: 'BTC' })).toBe('0.01760 BTC');
    expect(formatQuantity('12', { locale: 'en-US', step: '1', unit: 'DOGE' })).toBe('12 DOGE');
    expect(plain(formatQuantity('1000.5', { locale: 'fr-FR', step: '0.001', unit: 'ETH' }))).toBe(
      '1 000,500 ETH',
    );
  });

  it('without a known step, keeps six significant digits of a quantity (8 decimals at most, no trailing zeros)', () => {
    expect(formatQuantity('0.123456789', { locale: 'en-US' })).toBe('0.123457');
    expect(formatQuantity('0.000123456789', { locale: 'en-US', unit: 'BTC' })).toBe('0.00012346 BTC');
    expect(formatQuantity('1234.56789', { locale: 'en-US', unit: 'ADA' })).toBe('1,234.57 ADA');
    expect(formatQuantity('0.05', { locale: 'en-US', unit: 'BTC' })).toBe('0.05 BTC');
    expect(formatQuantity('0', { locale: 'en-US', unit: 'BTC' })).toBe('0 BTC');
    expect(formatQuantity(null, { unit: 'BTC' })).toBe('—');
  });

  it('writes a price in its quote currency, to the market’s tick when known', () => {
    expect(formatPrice('65432.1', 'USDT', { locale: 'en-US', tick: '0.01' })).toBe('65,432.10 USDT');
    expect(formatPrice('56794.591234', 'usdt', { locale: 'en-US', tick: '0.1' })).toBe('56,794.6 USDT');
    expect(plain(formatPrice('65432.1', 'USDT', { locale: 'fr-FR', tick: '0.01' }))).toBe('65 432,10 USDT');
    // No tick known: the currency's cents at least, six significant digits.
    expect(formatPrice('65432.123456', 'USDT', { locale: 'en-US' })).toBe('65,432.12 USDT');
    expect(formatPrice('0.543211234', 'USDT', { locale: 'en-US' })).toBe('0.543211 USDT');
    expect(formatPrice('2', 'USDT', { locale: 'en-US' })).toBe('2.00 USDT');
    expect(formatPrice('0.05123', 'BTC', { locale: 'en-US' })).toBe('0.05123 BTC');
    expect(formatPrice(null, 'USDT')).toBe('—');
  });
});

describe('numbers as a person types them', () => {
  it('reads English: a comma groups thousands, a dot is the decimal point (a lone comma that cannot group: decimal)', () => {
    expect(parseLocaleNumber('1,000', 'en-US')).toBe('1000');
    expect(parseLocaleNumber('1,000.5', 'en-US')).toBe('1000.5');
    expect(parseLocaleNumber('0.25', 'en-US')).toBe('0.25');
    expect(parseLocaleNumber('.5', 'en-US')).toBe('0.5');
    expect(parseLocaleNumber('0,05', 'en-US')).toBe('0.05');
    expect(parseLocaleNumber('1,5,0', 'en-US')).toBeNull();
    expect(parseLocaleNumber('1 000', 'en-US')).toBeNull();
    expect(parseLocaleNumber('abc', 'en-US')).toBeNull();
    expect(parseLocaleNumber('', 'en-US')).toBeNull();
  });

  it('reads French: spaces group thousands, a comma (or a lone dot) is the decimal mark', () => {
    expect(parseLocaleNumber('1 000,5', 'fr-FR')).toBe('1000.5');
    expect(parseLocaleNumber('1\u202f000,5', 'fr-FR')).toBe('1000.5');
    expect(parseLocaleNumber('1.000,5', 'fr-FR')).toBe('1000.5');
    expect(parseLocaleNumber('0,5', 'fr-FR')).toBe('0.5');
    expect(parseLocaleNumber('0.5', 'fr-FR')).toBe('0.5');
    expect(parseLocaleNumber('1,000', 'fr-FR')).toBe('1.000');
    expect(parseLocaleNumber('1,2,3', 'fr-FR')).toBeNull();
  });
});
