import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTradePnl, Decimal, realisedPnlFromLedger, type LedgerMovement } from '@kairos/core';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * Issue 19, the ledger's property: for random sequences of fills (fees in the base, the quote or a third
 * currency), funding payments, partial closes, inferred fills replaced by the venue's and fees the venue
 * corrected, what the ledger holds for an account adds up, currency by currency, to what a venue's balances
 * moved by — a spot venue's cash flows, and a futures wallet (realised PnL per closing fill, fees, funding)
 * once its positions are flat. The rows are written as the engine stores them (trades, orders, fills,
 * funding_payments); the ledger is written by the database's own triggers; the venue is modelled here. And
 * each trade's PnL computed from its movements alone (core's `realisedPnlFromLedger`) is what `computeTradePnl`
 * gives from its fills and funding.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

type FeeIn = 'quote' | 'base' | 'third';
type Step =
  | { kind: 'fill'; trade: number; open: boolean; part: number; price: number; fee: number; feeIn: FeeIn }
  | { kind: 'funding'; trade: number; amount: number }
  | { kind: 'replaceInferred'; trade: number; price: number; fee: number }
  | { kind: 'correctFee'; fee: number };

const MARKETS = [
  { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', futures: false },
  { symbol: 'ETH/BTC', base: 'ETH', quote: 'BTC', futures: false },
  { symbol: 'ETH/USDT:USDT', base: 'ETH', quote: 'USDT', futures: true },
] as const;
const THIRD = 'BNB';

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('fill' as const),
      trade: fc.nat(2),
      open: fc.boolean(),
      part: fc.integer({ min: 1, max: 100 }),
      price: fc.integer({ min: 5_000, max: 20_000 }),
      fee: fc.integer({ min: 0, max: 500 }),
      feeIn: fc.constantFrom<FeeIn>('quote', 'base', 'third'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('funding' as const),
      trade: fc.nat(2),
      amount: fc.integer({ min: -500, max: 500 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replaceInferred' as const),
      trade: fc.nat(2),
      price: fc.integer({ min: 5_000, max: 20_000 }),
      fee: fc.integer({ min: 0, max: 500 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('correctFee' as const), fee: fc.integer({ min: 0, max: 500 }) }),
  },
);

/** A venue's balances as they move, per currency (the model the ledger is checked against). */
class VenueModel {
  readonly moved = new Map<string, Decimal>();
  add(currency: string, amount: Decimal) {
    this.moved.set(currency, (this.moved.get(currency) ?? new Decimal(0)).plus(amount));
  }
}

type Held = {
  id: string;
  market: (typeof MARKETS)[number];
  side: 'long' | 'short';
  qty: Decimal;
  entry: Decimal;
};

describe('the ledger against the venue', () => {
  it('adds up to the balance change, currency by currency, for random fills, fees, funding and closes', async () => {
    const pool = db.pool;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        async (steps, shortFutures) => {
          const userId = (
            await pool.query(
              `INSERT INTO users (email, password_hash, preferences) VALUES ($1, 'x', '{}'::jsonb) RETURNING id`,
              [`prop-${randomUUID()}@example.com`],
            )
          ).rows[0].id as string;
          const accountId = (
            await pool.query(
              `INSERT INTO trading_accounts (user_id, nickname, exchange) VALUES ($1, 'Venue', 'paper') RETURNING id`,
              [userId],
            )
          ).rows[0].id as string;
          const venue = new VenueModel();
          const futuresWallet = { value: new Decimal(0) };
          let clock = Date.UTC(2026, 0, 1);
          const at = () => new Date((clock += 60_000));
          const fills: { id: string; feeCurrency: string; fee: Decimal }[] = [];

          const held: Held[] = [];
          for (const [i, market] of MARKETS.entries()) {
            const side = market.futures && shortFutures ? 'short' : 'long';
            const id = (
              await pool.query(
                `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity)
               VALUES ($1, $2, $3, $4, 'open', '0') RETURNING id`,
                [userId, accountId, market.symbol, side],
              )
            ).rows[0].id as string;
            held[i] = { id, market, side, qty: new Decimal(0), entry: new Decimal(0) };
          }

          async function insertFill(
            h: Held,
            side: 'buy' | 'sell',
            qty: Decimal,
            price: Decimal,
            fee: Decimal,
            feeCurrency: string,
            inferred = false,
          ) {
            const orderId = (
              await pool.query(
                `INSERT INTO orders (trade_id, user_id, trading_account_id, client_order_id, role, symbol, side, type,
                 amount, filled, status)
               VALUES ($1, $2, $3, $4, 'entry', $5, $6, 'market', $7, $7, 'filled') RETURNING id`,
                [h.id, userId, accountId, randomUUID().slice(0, 20), h.market.symbol, side, qty.toFixed()],
              )
            ).rows[0].id as string;
            const feeRate = feeCurrency === THIRD ? '0.0123' : null;
            const fillId = (
              await pool.query(
                `INSERT INTO fills (order_id, trade_id, venue_trade_id, price, amount, fee, fee_currency, fee_rate, at, inferred)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
                [
                  orderId,
                  h.id,
                  randomUUID(),
                  price.toFixed(),
                  qty.toFixed(),
                  fee.toFixed(),
                  feeCurrency,
                  feeRate,
                  at(),
                  inferred,
                ],
              )
            ).rows[0].id as string;
            return { orderId, fillId };
          }

          /** What the venue does with a fill: cash legs on spot, realised PnL on a futures position; the fee. */
          function venueFill(
            h: Held,
            side: 'buy' | 'sell',
            qty: Decimal,
            price: Decimal,
            fee: Decimal,
            feeCurrency: string,
          ) {
            venue.add(feeCurrency, fee.neg());
            const opens = (side === 'buy') === (h.side === 'long');
            if (!h.market.futures) {
              venue.add(h.market.quote, side === 'sell' ? price.times(qty) : price.times(qty).neg());
              venue.add(h.market.base, side === 'buy' ? qty : qty.neg());
            } else if (!opens) {
              const perUnit = h.side === 'long' ? price.minus(h.entry) : h.entry.minus(price);
              futuresWallet.value = futuresWallet.value.plus(perUnit.times(qty));
            }
            if (opens) {
              h.entry = h.qty.times(h.entry).plus(qty.times(price)).div(h.qty.plus(qty));
              h.qty = h.qty.plus(qty);
            } else h.qty = h.qty.minus(qty);
          }

          for (const s of steps) {
            if (s.kind === 'correctFee') {
              // The venue's own figure replaces the fee stored with a fill (a correction: the old taken back).
              const last = fills.at(-1);
              if (!last) continue;
              const fee = new Decimal(s.fee).div(1_000_000);
              await pool.query('UPDATE fills SET fee = $2 WHERE id = $1', [last.id, fee.toFixed()]);
              venue.add(last.feeCurrency, last.fee.minus(fee));
              last.fee = fee;
              continue;
            }
            const h = held[s.trade]!;
            if (s.kind === 'funding') {
              if (!h.market.futures || h.qty.isZero()) continue;
              const amount = new Decimal(s.amount).div(10_000);
              await pool.query(
                `INSERT INTO funding_payments (trade_id, trading_account_id, venue_payment_id, symbol, amount, currency, at)
               VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                [h.id, accountId, randomUUID(), h.market.symbol, amount.toFixed(), h.market.quote, at()],
              );
              futuresWallet.value = futuresWallet.value.plus(amount);
              continue;
            }
            const entrySide = h.side === 'long' ? 'buy' : 'sell';
            const exitSide = h.side === 'long' ? 'sell' : 'buy';
            if (s.kind === 'replaceInferred') {
              // Kairos infers an entry fill the venue did not list yet, then stores the venue's own in its place.
              const qty = new Decimal('0.01');
              const price = new Decimal(s.price).div(100);
              const { orderId, fillId } = await insertFill(
                h,
                entrySide,
                qty,
                new Decimal(price),
                new Decimal(0),
                h.market.quote,
                true,
              );
              await pool.query('DELETE FROM fills WHERE id = $1', [fillId]);
              const fee = new Decimal(s.fee).div(1_000_000);
              const real = price.plus('0.01');
              const id = (
                await pool.query(
                  `INSERT INTO fills (order_id, trade_id, venue_trade_id, price, amount, fee, fee_currency, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
                  [
                    orderId,
                    h.id,
                    randomUUID(),
                    real.toFixed(),
                    qty.toFixed(),
                    fee.toFixed(),
                    h.market.quote,
                    at(),
                  ],
                )
              ).rows[0].id as string;
              fills.push({ id, feeCurrency: h.market.quote, fee });
              venueFill(h, entrySide, qty, real, fee, h.market.quote);
              continue;
            }
            const open = s.open || h.qty.isZero();
            const qty = open
              ? new Decimal(s.part).div(1_000)
              : h.qty.times(s.part).div(100).toDecimalPlaces(8, Decimal.ROUND_DOWN);
            if (qty.isZero()) continue;
            const price = new Decimal(s.price).div(100);
            const feeIn: FeeIn = h.market.futures && s.feeIn === 'base' ? 'quote' : s.feeIn;
            const feeCurrency = feeIn === 'quote' ? h.market.quote : feeIn === 'base' ? h.market.base : THIRD;
            const fee = new Decimal(s.fee).div(1_000_000);
            const side = open ? entrySide : exitSide;
            const { fillId } = await insertFill(h, side, qty, price, fee, feeCurrency);
            fills.push({ id: fillId, feeCurrency, fee });
            venueFill(h, side, qty, price, fee, feeCurrency);
          }

          // The futures position closed (its wallet is what it is once flat), at the last price it traded.
          const futures = held.find((h) => h.market.futures)!;
          if (futures.qty.gt(0)) {
            const side = futures.side === 'long' ? 'sell' : 'buy';
            const qty = futures.qty;
            const { fillId } = await insertFill(
              futures,
              side,
              qty,
              futures.entry.plus(1),
              new Decimal(0),
              'USDT',
            );
            fills.push({ id: fillId, feeCurrency: 'USDT', fee: new Decimal(0) });
            venueFill(futures, side, qty, futures.entry.plus(1), new Decimal(0), 'USDT');
          }
          venue.add('USDT', futuresWallet.value);

          const { rows } = await pool.query<{ currency: string; total: string }>(
            `SELECT currency, sum(amount)::text AS total FROM ledger_events
            WHERE user_id = $1 AND kind IN ('fill', 'fee', 'funding') GROUP BY currency`,
            [userId],
          );
          const ledger = new Map(rows.map((r) => [r.currency, new Decimal(r.total)]));

          // Each trade's PnL computed from its movements alone is what its fills and funding give.
          for (const h of held) {
            const movements = (
              await pool.query<LedgerMovement>(
                `SELECT kind, amount::text AS amount, currency, rate::text AS rate, ref::text AS ref FROM ledger_events
                WHERE trade_id = $1 AND kind IN ('fill', 'fee', 'funding') ORDER BY id`,
                [h.id],
              )
            ).rows;
            const tradeFills = (
              await pool.query<{
                side: 'buy' | 'sell';
                price: string;
                amount: string;
                fee: string;
                fee_currency: string;
                fee_rate: string | null;
              }>(
                `SELECT o.side, f.price::text, f.amount::text, f.fee::text, f.fee_currency, f.fee_rate::text
                 FROM fills f JOIN orders o ON o.id = f.order_id WHERE f.trade_id = $1 ORDER BY f.at`,
                [h.id],
              )
            ).rows.map((f) => ({
              side: f.side,
              price: f.price,
              quantity: f.amount,
              fee: f.fee,
              feeCurrency: f.fee_currency,
              feeRate: f.fee_rate,
            }));
            const funding = (
              await pool.query<{ total: string }>(
                'SELECT coalesce(sum(amount), 0)::text AS total FROM funding_payments WHERE trade_id = $1',
                [h.id],
              )
            ).rows[0]!.total;
            const entrySide = h.side === 'long' ? 'buy' : 'sell';
            const expected = computeTradePnl({
              side: h.side,
              symbol: h.market.symbol,
              entryFills: tradeFills.filter((f) => f.side === entrySide),
              exitFills: tradeFills.filter((f) => f.side !== entrySide),
              funding,
            }).realisedPnl;
            const fromLedger = realisedPnlFromLedger(movements, { side: h.side, symbol: h.market.symbol })!;
            expect(
              fromLedger.minus(expected).abs().lte('1e-8'),
              `${h.market.symbol}: ${fromLedger} vs ${expected}`,
            ).toBe(true);
          }
          for (const currency of new Set([...ledger.keys(), ...venue.moved.keys()])) {
            const inLedger = ledger.get(currency) ?? new Decimal(0);
            const atVenue = venue.moved.get(currency) ?? new Decimal(0);
            expect(inLedger.minus(atVenue).abs().lte('1e-8'), `${currency}: ${inLedger} vs ${atVenue}`).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 25, seed: 19 },
    );
  });
});
