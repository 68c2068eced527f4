import { describe, expect, it } from 'vitest';
import { splitSymbol, takeProfitName } from './trade-figures';

// The exact decimal subtraction moved to the contract (packages/contract/src/decimal.test.ts).
describe('trade figures', () => {
  it('reads symbols and level names', () => {
    expect(splitSymbol('BTC/USDT')).toEqual({ base: 'BTC', quote: 'USDT' });
    expect(splitSymbol('ETH/USDT:USDT')).toEqual({ base: 'ETH', quote: 'USDT' });
    expect(takeProfitName('tp2')).toBe('TP2');
  });
});
