import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '@kairos/core';
import { nextFundingTime } from '../../src/exchange/paper/paper-funding';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';
import { registerUser, type Session } from '../support/users';

/**
 * Issue 19 on the paper venue, end to end: random trades — spot or futures, long or short, partial closes
 * (take-profits pushed to market) at moving prices, held across random funding times, then completed — and
 * the ledger's movements of the account (fills, fees, funding, as Kairos stored them from the venue's
 * answers) add up, currency by currency, to what the paper account's balances moved by; the trade's PnL too.
 */
describe('the ledger against the paper account', () => {
  /** The paper venue's clock runs ahead of the wall clock by `shift` (funding times come without waiting). */
  let shift = 0;
  const market = new ScriptedMarket(() => Date.now() + shift);
  let t: TradesApp;
  let alice: Session;

  beforeAll(async () => {
    t = await startTradesApp({ paperVenueOptions: { market, clock: () => Date.now() + shift } });
    alice = await registerUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The book around `mid` (deep enough for every order here), the funding price `mid`. */
  const priceAt = (mid: number) => {
    market.mid = new Decimal(mid);
    market.book = {
      asks: [[new Decimal(mid + 5), new Decimal(100)]],
      bids: [[new Decimal(mid - 5), new Decimal(100)]],
    };
  };

  const step = fc.oneof(
    fc.record({ kind: fc.constant('funding' as const), mid: fc.integer({ min: 60_000, max: 70_000 }) }),
    fc.record({ kind: fc.constant('push' as const), mid: fc.integer({ min: 60_000, max: 70_000 }) }),
  );

  it('adds up to the balance change for random trades, partial closes and funding', async () => {
    const api = asUser(t.app, alice);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('spot', 'future'),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        fc.array(step, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 60_000, max: 70_000 }),
        async (marketType, short, size, steps, closeAt) => {
          priceAt(65_000);
          const created = await createPaperAccount(t.app, alice, { marketType });
          const account = (await t.app.services.repos.accounts.findById(created.id))!;
          const gateway = await t.app.services.venues.gateways.forAccount(account);
          const balances = async () =>
            Object.fromEntries(
              Object.entries(await gateway.fetchBalances()).map(([c, b]) => [c, new Decimal(b.total)]),
            );
          const before = await balances();
          const side = marketType === 'future' && short ? 'short' : 'long';
          const opened = await api.post('/api/trades', {
            accountId: account.id,
            symbol: 'BTC/USDT',
            side,
            amount: new Decimal(size).div(1000).toFixed(),
            takeProfits: [
              { percent: 10, sizePercent: 30 },
              { percent: 20, sizePercent: 30 },
              { percent: 30, sizePercent: 40 },
            ],
            stopLossPercent: 10,
          });
          expect(opened.status, JSON.stringify(opened.body)).toBe(201);
          const tradeId = opened.body.results.trade.id as string;
          const sweep = () =>
            t.app.services.engine.reconciler.reconcileAccount({ id: account.id }, { sweep: true });

          let pushed = 0;
          for (const s of steps) {
            priceAt(s.mid);
            if (s.kind === 'funding') {
              shift = nextFundingTime(Date.now() + shift) + 60_000 - Date.now();
              await sweep();
            } else if (pushed < 2) {
              pushed += 1;
              const res = await api.put('/push-to-take-profit', {
                tradeId,
                botId: null,
                userId: alice.user.id,
                takeProfitRole: `tp${pushed}`,
              });
              expect(res.status, JSON.stringify(res.body)).toBe(200);
            }
          }
          priceAt(closeAt);
          const closed = await api.post(`/api/trades/${tradeId}/complete`, {});
          expect(closed.status, JSON.stringify(closed.body)).toBe(200);
          await sweep(); // the funding read once more after the close
          const trade = (await t.app.services.repos.trades.findById(tradeId))!;
          expect(trade.status).toBe('closed');

          const after = await balances();
          const { rows } = await t.db.pool.query<{ currency: string; total: string }>(
            `SELECT currency, sum(amount)::text AS total FROM ledger_events
              WHERE trade_id = $1 AND kind IN ('fill', 'fee', 'funding') GROUP BY currency`,
            [tradeId],
          );
          const ledger = new Map(rows.map((r) => [r.currency, new Decimal(r.total)]));
          const moved = (c: string) => (after[c] ?? new Decimal(0)).minus(before[c] ?? 0);
          // Spot: every currency the account holds; futures: the wallet (its position's base legs net to zero).
          for (const currency of new Set([...Object.keys(after), ...ledger.keys()])) {
            const inLedger = ledger.get(currency) ?? new Decimal(0);
            expect(
              inLedger.minus(moved(currency)).abs().lte('1e-8'),
              `${marketType} ${side} ${currency}: ledger ${inLedger} vs account ${moved(currency)}`,
            ).toBe(true);
          }
          expect(
            new Decimal(trade.realisedPnl!).minus(moved('USDT')).abs().lte('1e-8'),
            `PnL ${trade.realisedPnl} vs ${moved('USDT')}`,
          ).toBe(true);
        },
      ),
      { numRuns: 16, seed: 1919 },
    );
  });
});
