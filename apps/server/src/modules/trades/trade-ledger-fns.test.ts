import { computeTradePnl, Decimal, toNumericString } from '@kairos/core';
import { describe, expect, it } from 'vitest';
import { ledgerFigures, type TradeLedgerTotals } from './trade-ledger-fns';

const columns = { realisedPnl: '1', pnlPercent: '2', commission: '3', funding: '4' };

/** The ledger's totals of some fills (quote fees), as the repo's aggregate adds them up. */
function totalsOf(
  side: 'long' | 'short',
  fills: { side: 'buy' | 'sell'; price: string; quantity: string; fee: string }[],
  funding = '0',
): TradeLedgerTotals {
  const entry = side === 'long' ? 'buy' : 'sell';
  const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Decimal(0));
  const cost = (f: (typeof fills)[number]) => new Decimal(f.price).times(f.quantity);
  const entries = fills.filter((f) => f.side === entry);
  const exits = fills.filter((f) => f.side !== entry);
  const bought = sum(fills.filter((f) => f.side === 'buy').map((f) => new Decimal(f.quantity)));
  const sold = sum(fills.filter((f) => f.side === 'sell').map((f) => new Decimal(f.quantity)));
  return {
    fills: fills.length,
    quoteFlow: sum(fills.map((f) => (f.side === 'sell' ? cost(f) : cost(f).neg()))),
    held: bought.minus(sold),
    entryQuantity: sum(entries.map((f) => new Decimal(f.quantity))),
    entryCost: sum(entries.map(cost)),
    exitQuantity: sum(exits.map((f) => new Decimal(f.quantity))),
    fees: sum(fills.map((f) => new Decimal(f.fee))),
    funding,
    booked: null,
  };
}

describe('ledgerFigures', () => {
  it.each([
    {
      name: 'a laddered long, partly exited',
      side: 'long' as const,
      fills: [
        { side: 'buy' as const, price: '100', quantity: '3', fee: '0.3' },
        { side: 'buy' as const, price: '90', quantity: '1', fee: '0.09' },
        { side: 'sell' as const, price: '110', quantity: '1.5', fee: '0.165' },
      ],
      funding: '0',
    },
    {
      name: 'a short closed in two exits, with funding paid',
      side: 'short' as const,
      fills: [
        { side: 'sell' as const, price: '64000', quantity: '0.03', fee: '0.96' },
        { side: 'buy' as const, price: '63000', quantity: '0.01', fee: '0.315' },
        { side: 'buy' as const, price: '65000.5', quantity: '0.02', fee: '0.65' },
      ],
      funding: '-1.25',
    },
  ])('$name: what computeTradePnl gives from the fills', ({ side, fills, funding }) => {
    const entry = side === 'long' ? 'buy' : 'sell';
    const asFill = (f: (typeof fills)[number]) => ({ ...f, feeCurrency: 'USDT' });
    const want = computeTradePnl({
      side,
      symbol: 'BTC/USDT',
      entryFills: fills.filter((f) => f.side === entry).map(asFill),
      exitFills: fills.filter((f) => f.side !== entry).map(asFill),
      funding,
    });
    expect(ledgerFigures(totalsOf(side, fills, funding), columns)).toEqual({
      realisedPnl: new Decimal(toNumericString(want.realisedPnl, 18)).toFixed(),
      pnlPercent: new Decimal(toNumericString(want.pnlPercent!, 18)).toFixed(),
      commission: want.commission.toFixed(),
      funding: new Decimal(funding).toFixed(),
    });
  });

  it('nothing exited yet: no PnL, the fees paid as commission', () => {
    const open = totalsOf('long', [{ side: 'buy', price: '100', quantity: '1', fee: '0.1' }]);
    expect(ledgerFigures(open, columns)).toEqual({
      realisedPnl: null,
      pnlPercent: null,
      commission: '0.1',
      funding: '0',
    });
  });

  it('no fill in the ledger: the columns, but for the PnL the trade has booked', () => {
    expect(ledgerFigures(undefined, columns)).toEqual(columns);
    const bookedOnly = { ...totalsOf('long', []), booked: '42.5' };
    expect(ledgerFigures(bookedOnly, columns)).toEqual({ ...columns, realisedPnl: '42.5' });
  });
});
