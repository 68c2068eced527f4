import { describe, expect, it } from 'vitest';
import { InvalidSymbolError, parseSymbol, symbolFromPath } from './symbol';

describe('symbols', () => {
  it.each([
    ['BTC/USDT', { base: 'BTC', quote: 'USDT' }],
    ['1000PEPE/USDT', { base: '1000PEPE', quote: 'USDT' }],
    ['BTC/USDT:USDT', { base: 'BTC', quote: 'USDT', settle: 'USDT' }],
  ])('parses %s', (symbol, parsed) => {
    expect(parseSymbol(symbol)).toEqual(parsed);
  });

  it.each(['BTCUSDT', 'BTC-USDT', '/USDT', 'BTC/', 'BTC/USDT/ETH', ''])('refuses %j', (symbol) => {
    expect(() => parseSymbol(symbol)).toThrow(InvalidSymbolError);
  });

  it.each([
    ['BTC/USDT', 'BTC-USDT'],
    ['ETH/BTC', 'ETH-BTC'],
  ])('%s is %s in a path', (symbol, path) => {
    expect(symbolFromPath(path)).toBe(symbol);
  });

  it('refuses a path symbol that is not a pair', () => {
    expect(() => symbolFromPath('BTCUSDT')).toThrow('Not a valid market symbol: BTCUSDT');
  });
});
