import { describe, expect, it } from 'vitest';
import { buildStopBook, type WatchedStop } from '../../src/engine/stop-watch-book';

const stop = (id: string, side: 'long' | 'short', price: string, symbol = 'BTC/USDT'): WatchedStop => ({
  id,
  accountId: `account-${id}`,
  symbol,
  side,
  stop: price,
  restsOnVenue: false,
});

describe('the stop book', () => {
  const book = buildStopBook(
    [
      stop('l1', 'long', '64000'),
      stop('l2', 'long', '63000'),
      stop('l3', 'long', '64350.5'),
      stop('s1', 'short', '66000'),
      stop('s2', 'short', '67000'),
      stop('e1', 'long', '3000', 'ETH/USDT'),
    ].map((s) => ({ venue: 'paper|spot', stop: s })),
  );

  it('finds the longs a price fell to and the shorts it rose to, at the stop included', () => {
    const ids = (last: string) => book.crossed('paper|spot', 'BTC/USDT', last).map((s) => s.id);
    expect(ids('65000')).toEqual([]);
    expect(ids('64350.5')).toEqual(['l3']);
    expect(ids('64000')).toEqual(['l3', 'l1']);
    expect(ids('62000')).toEqual(['l3', 'l1', 'l2']);
    expect(ids('66000')).toEqual(['s1']);
    expect(ids('70000')).toEqual(['s1', 's2']);
  });

  it('compares in decimals where floats cannot tell the prices apart', () => {
    // A long's stop at 0.1: a price a hair above it (the same float) has not crossed it; the stop itself has.
    const fine = buildStopBook([{ venue: 'v', stop: stop('a', 'long', '0.1') }]);
    expect(fine.crossed('v', 'BTC/USDT', '0.10000000000000000001')).toEqual([]);
    expect(fine.crossed('v', 'BTC/USDT', '0.1').map((s) => s.id)).toEqual(['a']);
  });

  it('prices each venue for its own symbols only', () => {
    expect(book.venues()).toEqual(['paper|spot']);
    expect(book.symbols('paper|spot').sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(book.crossed('binance|false|spot', 'BTC/USDT', '1')).toEqual([]);
    expect(book.size).toBe(6);
  });
});
