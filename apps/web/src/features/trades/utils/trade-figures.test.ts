import { describe, expect, it } from 'vitest';
import { splitSymbol, subtractDecimals, takeProfitName } from './trade-figures';

describe('trade figures', () => {
  it.each([
    ['0.025', '0', '0.025'],
    ['0.025', '0.01', '0.015'],
    ['1', '0.99999999', '0.00000001'],
    ['0.1', '0.3', '-0.2'],
    ['12', '12', '0'],
  ])('%s − %s = %s, exactly', (a, b, difference) => {
    expect(subtractDecimals(a, b)).toBe(difference);
  });

  it('reads symbols and level names', () => {
    expect(splitSymbol('BTC/USDT')).toEqual({ base: 'BTC', quote: 'USDT' });
    expect(splitSymbol('ETH/USDT:USDT')).toEqual({ base: 'ETH', quote: 'USDT' });
    expect(takeProfitName('tp2')).toBe('TP2');
  });
});
