import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { realisedPnlFromLedger, type LedgerMovement } from './ledger';
import { Decimal } from './money';
import { computeTradePnl, type Fill } from './pnl';

/**
 * Issue 19: a trade's figures can be computed from the ledger. The movements are written as the database's
 * triggers write them (a fill's quote and base legs, its fee with its rate, each funding payment; a fill
 * replaced is taken back and booked again under its ref), and their PnL is what `computeTradePnl` says from
 * the fills themselves, for random longs and shorts, partial closes, fees in the base, the quote or BNB.
 */
const price = fc.integer({ min: 1_000, max: 100_000 }).map((n) => new Decimal(n).div(10));
const quantity = fc.integer({ min: 1, max: 5_000 }).map((n) => new Decimal(n).div(1000));
const fee = fc.record({
  kind: fc.constantFrom('quote', 'base', 'BNB', 'none'),
  amount: fc.integer({ min: 0, max: 5_000 }).map((n) => new Decimal(n).div(100_000)),
  rate: fc.integer({ min: 100, max: 1_000 }).map((n) => new Decimal(n)),
});

/** The events the fills trigger writes for a fill (sign −1: taking it back). */
function movementsOf(fill: Fill, ref: string, sign = 1): LedgerMovement[] {
  const p = new Decimal(fill.price.toString());
  const q = new Decimal(fill.quantity.toString());
  const out: LedgerMovement[] = [
    { kind: 'fill', amount: p.times(q).times(fill.side === 'sell' ? sign : -sign), currency: 'USDT', ref },
    { kind: 'fill', amount: q.times(fill.side === 'buy' ? sign : -sign), currency: 'BTC', rate: p, ref },
  ];
  if (fill.fee && !new Decimal(fill.fee.toString()).isZero()) {
    const currency = fill.feeCurrency ?? 'USDT';
    const rate = currency === 'USDT' ? null : currency === 'BTC' ? p : fill.feeRate;
    out.push({ kind: 'fee', amount: new Decimal(fill.fee.toString()).times(-sign), currency, rate, ref });
  }
  return out;
}

describe('a trade’s PnL from its ledger movements', () => {
  it('is computeTradePnl’s, for random fills, partial closes, fees in any currency, funding and replaced fills', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.array(fc.record({ price, quantity, fee }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ price, share: fc.integer({ min: 1, max: 100 }), fee }), { maxLength: 4 }),
        fc.array(fc.integer({ min: -500, max: 500 }), { maxLength: 3 }),
        fc.boolean(),
        (side, entries, exits, funding, replaceFirst) => {
          const fillOf = (
            s: 'buy' | 'sell',
            p: Decimal,
            q: Decimal,
            f: { kind: string; amount: Decimal; rate: Decimal },
          ): Fill => ({
            side: s,
            price: p,
            quantity: q,
            fee: f.kind === 'none' ? null : f.amount,
            feeCurrency:
              f.kind === 'quote' ? 'USDT' : f.kind === 'base' ? 'BTC' : f.kind === 'BNB' ? 'BNB' : null,
            feeRate: f.kind === 'BNB' ? f.rate : null,
          });
          const entrySide = side === 'long' ? 'buy' : 'sell';
          const exitSide = side === 'long' ? 'sell' : 'buy';
          const entryFills = entries.map((e) => fillOf(entrySide, e.price, e.quantity, e.fee));
          let open = entryFills.reduce((s, f) => s.plus(f.quantity.toString()), new Decimal(0));
          const exitFills: Fill[] = [];
          for (const x of exits) {
            const q = open.times(x.share).div(100).toDecimalPlaces(3, Decimal.ROUND_DOWN);
            if (q.isZero()) continue;
            open = open.minus(q);
            exitFills.push(fillOf(exitSide, x.price, q, x.fee));
          }
          const fundingTotal = funding.reduce((s, n) => s.plus(new Decimal(n).div(100)), new Decimal(0));

          const movements: LedgerMovement[] = [];
          [...entryFills, ...exitFills].forEach((f, i) => {
            if (i === 0 && replaceFirst) {
              // Inferred first at another price, then taken back; the venue's own booked under its own ref.
              const inferred = { ...f, price: new Decimal(f.price.toString()).plus(1), fee: null };
              movements.push(...movementsOf(inferred, 'inferred'), ...movementsOf(inferred, 'inferred', -1));
            }
            movements.push(...movementsOf(f, `fill${i}`));
          });
          funding.forEach((n, i) =>
            movements.push({
              kind: 'funding',
              amount: new Decimal(n).div(100),
              currency: 'USDT',
              ref: `f${i}`,
            }),
          );

          const expected = computeTradePnl({
            side,
            symbol: 'BTC/USDT',
            entryFills,
            exitFills,
            funding: fundingTotal,
          }).realisedPnl;
          const fromLedger = realisedPnlFromLedger(movements, { side, symbol: 'BTC/USDT' })!;
          expect(fromLedger.minus(expected).abs().lte('1e-12'), `${fromLedger} vs ${expected}`).toBe(true);
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });

  it('cannot say without a rate for a third currency', () => {
    const movements: LedgerMovement[] = [
      { kind: 'fill', amount: '-100', currency: 'USDT', ref: 'a' },
      { kind: 'fill', amount: '1', currency: 'BTC', rate: '100', ref: 'a' },
      { kind: 'fee', amount: '-0.01', currency: 'BNB', ref: 'a' },
    ];
    expect(realisedPnlFromLedger(movements, { side: 'long', symbol: 'BTC/USDT' })).toBeNull();
  });
});
