import { toDecimal } from '@kairos/core';
import { describe, expect, it } from 'vitest';
import { allocateFills, compareHoldings, shareShortfall, type HeldTrade } from './position-check-fns';

const trade = (
  id: string,
  side: 'long' | 'short',
  held: string,
  minute = 0,
  symbol = 'BTC/USDT',
): HeldTrade => ({
  id,
  symbol,
  side,
  held: toDecimal(held),
  openedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)),
});
const plain = (m: ReturnType<typeof compareHoldings>) =>
  m.map((x) => ({ kind: x.kind, symbol: x.symbol, ours: x.ours.toFixed(), venue: x.venue.toFixed() }));

describe('compareHoldings', () => {
  it('finds nothing when the venue holds what the trades hold, per side', () => {
    const trades = [trade('a', 'long', '0.01'), trade('b', 'long', '0.02')];
    expect(compareHoldings(trades, [{ symbol: 'BTC/USDT', side: 'long', amount: '0.03' }])).toEqual([]);
  });

  it('calls a venue holding less a shortfall and more an excess, a flip both', () => {
    const trades = [trade('a', 'long', '0.03')];
    const [short] = compareHoldings(trades, [{ symbol: 'BTC/USDT', side: 'long', amount: '0.01' }]);
    expect(short).toMatchObject({ kind: 'short', side: 'long' });
    expect(short!.kind === 'short' && short!.missing.toFixed()).toBe('0.02');
    expect(plain(compareHoldings(trades, [{ symbol: 'BTC/USDT', side: 'long', amount: '0.05' }]))).toEqual([
      { kind: 'excess', symbol: 'BTC/USDT', ours: '0.03', venue: '0.05' },
    ]);
    // Sold twice what was held (one-way): long gone, short opened by hand.
    expect(plain(compareHoldings(trades, [{ symbol: 'BTC/USDT', side: 'short', amount: '0.03' }]))).toEqual([
      { kind: 'short', symbol: 'BTC/USDT', ours: '0.03', venue: '0' },
      { kind: 'excess', symbol: 'BTC/USDT', ours: '0', venue: '0.03' },
    ]);
  });

  it('reports a venue position on a symbol no trade holds as an excess with no trades', () => {
    const [m] = compareHoldings(
      [trade('a', 'long', '0.01')],
      [
        { symbol: 'BTC/USDT', side: 'long', amount: '0.01' },
        { symbol: 'ETH/USDT', side: 'short', amount: '1' },
      ],
    );
    expect(m).toMatchObject({ kind: 'excess', symbol: 'ETH/USDT', side: 'short', trades: [] });
  });

  it('compares the net on a one-way account when the trades hold both sides', () => {
    const trades = [trade('a', 'long', '0.03'), trade('b', 'short', '0.01')];
    expect(compareHoldings(trades, [{ symbol: 'BTC/USDT', side: 'long', amount: '0.02' }])).toEqual([]);
    expect(plain(compareHoldings(trades, [{ symbol: 'BTC/USDT', side: 'long', amount: '0.01' }]))).toEqual([
      { kind: 'net', symbol: 'BTC/USDT', ours: '0.02', venue: '0.01' },
    ]);
    // Hedge mode lists both sides: each side compared on its own.
    expect(
      compareHoldings(trades, [
        { symbol: 'BTC/USDT', side: 'long', amount: '0.03' },
        { symbol: 'BTC/USDT', side: 'short', amount: '0.01' },
      ]),
    ).toEqual([]);
  });

  it('skips symbols with an order awaiting its answer, and differences under the tolerance', () => {
    const trades = [trade('a', 'long', '0.03')];
    expect(compareHoldings(trades, [], { skip: new Set(['BTC/USDT']) })).toEqual([]);
    const near = [{ symbol: 'BTC/USDT', side: 'long' as const, amount: '0.0300004' }];
    expect(compareHoldings(trades, near, { tolerance: () => toDecimal('0.0005') })).toEqual([]);
    expect(compareHoldings(trades, near)).toHaveLength(1);
  });

  it('ignores trades holding nothing yet (an entry not filled)', () => {
    expect(compareHoldings([trade('a', 'long', '0')], [])).toEqual([]);
  });
});

describe('shareShortfall', () => {
  it('takes from the newest trade first, each at most what it holds', () => {
    const trades = [trade('old', 'long', '0.02', 0), trade('new', 'long', '0.01', 5)];
    const shares = shareShortfall(trades, toDecimal('0.015'));
    expect(Object.fromEntries([...shares].map(([k, v]) => [k, v.toFixed()]))).toEqual({
      new: '0.01',
      old: '0.005',
    });
    expect(shareShortfall(trades, toDecimal('0.03')).get('old')!.toFixed()).toBe('0.02');
  });
});

describe('allocateFills', () => {
  const fill = (id: string, amount: string, fee: string, t: number) => ({
    venueTradeId: id,
    venueOrderId: `o${id}`,
    price: '66000',
    amount,
    fee,
    feeCurrency: 'USDT',
    timestamp: t,
  });

  it('gives the oldest fills out first, splitting one with its fee in proportion', () => {
    const needs = new Map([
      ['new', toDecimal('0.01')],
      ['old', toDecimal('0.02')],
    ]);
    const { parts, uncovered } = allocateFills(needs, [
      fill('2', '0.02', '0.4', 2),
      fill('1', '0.01', '0.3', 1),
    ]);
    expect(parts.map((p) => [p.tradeId, p.venueTradeId, p.amount, p.fee])).toEqual([
      ['new', '1', '0.01', '0.3'],
      ['old', '2', '0.02', '0.4'],
    ]);
    expect(uncovered.size).toBe(0);
    const split = allocateFills(new Map([['a', toDecimal('0.005')]]), [fill('1', '0.01', '0.3', 1)]);
    expect(split.parts.map((p) => [p.amount, p.fee])).toEqual([['0.005', '0.15']]);
  });

  it('says what no fill covered', () => {
    const { parts, uncovered } = allocateFills(new Map([['a', toDecimal('0.03')]]), [
      fill('1', '0.01', '0.3', 1),
    ]);
    expect(parts).toHaveLength(1);
    expect(uncovered.get('a')!.toFixed()).toBe('0.02');
    expect(
      allocateFills(new Map([['a', toDecimal('0.01')]]), [])
        .uncovered.get('a')!
        .toFixed(),
    ).toBe('0.01');
  });
});
