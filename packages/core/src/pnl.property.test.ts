import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from './money';
import { computeTradePnl, type Fill } from './pnl';

/**
 * Issue 19's property: for any sequence of fills — the entry in several parts, partial closes, fees in the
 * quote, in the base coin or in a third currency (BNB at the rate recorded with each fill), funding paid and
 * received — a trade's realised PnL equals what the account's balances moved by, valued in the quote (a coin
 * left over from base fees counted at the last fill's price; BNB at each fill's own rate).
 */
const price = fc.integer({ min: 1_000, max: 100_000 }).map((n) => new Decimal(n).div(10));
const quantity = fc.integer({ min: 1, max: 5_000 }).map((n) => new Decimal(n).div(1000));
const feeKind = fc.constantFrom('quote', 'base', 'BNB', 'none');
const bnbRate = fc.integer({ min: 100, max: 1_000 }).map((n) => new Decimal(n));

const leg = fc.record({ price, quantity, feeKind, bnbRate, feeBps: fc.integer({ min: 0, max: 20 }) });

describe('realised PnL equals the cash flow', () => {
  it('for random entries, partial closes, fees in any currency and funding', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.array(leg, { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.record({
            price,
            share: fc.integer({ min: 1, max: 100 }),
            feeKind,
            bnbRate,
            feeBps: fc.integer({ min: 0, max: 20 }),
          }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.array(
          fc.integer({ min: -5_000, max: 5_000 }).map((n) => new Decimal(n).div(100)),
          { maxLength: 3 },
        ),
        (side, entries, exitLegs, funding) => {
          const entrySide = side === 'long' ? 'buy' : 'sell';
          const exitSide = side === 'long' ? 'sell' : 'buy';
          const entryQty = entries.reduce((s, e) => s.plus(e.quantity), new Decimal(0));
          // Exits close the whole entry, cut in the drawn shares (the last takes the rest).
          const totalShare = exitLegs.reduce((s, e) => s + e.share, 0);
          let left = entryQty;
          const exits = exitLegs.map((e, i) => {
            const q =
              i === exitLegs.length - 1
                ? left
                : entryQty.times(e.share).div(totalShare).toDecimalPlaces(8, Decimal.ROUND_DOWN);
            left = left.minus(q);
            return { ...e, quantity: q };
          });

          // The account: quote, base and BNB balances moved by every fill, fee and funding payment.
          let quote = new Decimal(0);
          let base = new Decimal(0);
          let bnbValue = new Decimal(0);
          const toFill = (s: 'buy' | 'sell', e: Omit<(typeof exits)[number], 'share'>): Fill => {
            const notional = e.price.times(e.quantity);
            const feeInQuote = notional.times(e.feeBps).div(10_000);
            base = s === 'buy' ? base.plus(e.quantity) : base.minus(e.quantity);
            quote = s === 'buy' ? quote.minus(notional) : quote.plus(notional);
            if (e.feeKind === 'none' || feeInQuote.isZero())
              return { side: s, price: e.price, quantity: e.quantity };
            if (e.feeKind === 'quote') {
              quote = quote.minus(feeInQuote);
              return { side: s, price: e.price, quantity: e.quantity, fee: feeInQuote, feeCurrency: 'USDT' };
            }
            if (e.feeKind === 'base') {
              const fee = feeInQuote.div(e.price);
              base = base.minus(fee);
              return { side: s, price: e.price, quantity: e.quantity, fee, feeCurrency: 'BTC' };
            }
            const fee = feeInQuote.div(e.bnbRate);
            bnbValue = bnbValue.minus(fee.times(e.bnbRate));
            return {
              side: s,
              price: e.price,
              quantity: e.quantity,
              fee,
              feeCurrency: 'BNB',
              feeRate: e.bnbRate,
            };
          };
          const entryFills = entries.map((e) => toFill(entrySide, e));
          const exitFills = exits.filter((e) => e.quantity.gt(0)).map((e) => toFill(exitSide, e));
          const fundingTotal = funding.reduce((s, f) => s.plus(f), new Decimal(0));
          quote = quote.plus(fundingTotal);

          const pnl = computeTradePnl({
            side,
            symbol: 'BTC/USDT',
            entryFills,
            exitFills,
            funding: fundingTotal,
          });
          // A coin left over (base fees taken from what was held) is worth the last fill's price.
          const lastPrice = exits.at(-1)!.price;
          const cashFlow = quote.plus(base.times(lastPrice)).plus(bnbValue);
          const baseFeeAtOwnPrice = [...entryFills, ...exitFills]
            .filter((f) => f.feeCurrency === 'BTC')
            .reduce(
              (s, f) =>
                s.plus(
                  new Decimal(f.fee!.toString()).times(new Decimal(f.price.toString()).minus(lastPrice)),
                ),
              new Decimal(0),
            );
          // The PnL values a base fee at its own fill's price, the account at the last price: the difference
          // is exactly those fees' revaluation.
          expect(pnl.realisedPnl.minus(cashFlow.minus(baseFeeAtOwnPrice)).abs().lte('1e-12')).toBe(true);
          expect(pnl.unconvertedFees).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 20_261_124 },
    );
  });
});
