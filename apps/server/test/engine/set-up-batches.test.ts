import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBot,
  createPaperAccount,
  ladderStrategyBody,
  sendSignal,
  waitForAlert,
} from '../support/engine';
import { registerUser } from '../support/users';
import { asUser, startAlerts, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Issue 18: after a fan-out on a ladder strategy with a stop, every trade's take-profits and its stop resting
 * on the venue are set up in batches — the trades' locks taken together, their reads, writes and venue calls
 * going out a group at a time — instead of some 28 statements a trade, one trade after another.
 */
const BOTS = 40;
const OPERATOR = 'operator@example.com';
let t: TradesApp;
let alerts: ReturnType<typeof startAlerts>;
let strategy: { id: string; strategyKey: string; webhookSecret: string };

beforeAll(async () => {
  t = await startTradesApp({ env: { KAIROS_ADMIN_EMAIL: OPERATOR } });
  alerts = startAlerts(t);
  // The operator's strategy is public: its subscribers' bots are on their own accounts.
  const owner = await registerUser(t.app, OPERATOR);
  strategy = (await asUser(t.app, owner).post('/api/strategies', ladderStrategyBody('Ladder and venue stop')))
    .body.results;
  // Futures accounts, one bot each (a futures account holds one position per symbol): every stop rests on
  // the venue. Spread over users, each within the per-user account quota.
  const users = [owner, await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
  for (let i = 0; i < BOTS; i += 1) {
    const user = users[i % users.length]!;
    const account = await createPaperAccount(t.app, user, { nickname: `f${i}`, marketType: 'future' });
    await createBot(t.app, user, {
      nickname: `bot ${i}`,
      strategyId: strategy.id,
      tradingAccountId: account.id,
      fixedAmount: 100,
      isActive: true,
    });
  }
}, 120_000);
afterAll(async () => {
  await alerts.stop();
  await t.close();
});

/** Statements sent to PostgreSQL by this process while `work` runs. */
async function countStatements(work: () => Promise<void>): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...a: unknown[]) {
    n += 1;
    return original.apply(this, a);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return n;
}

describe('an alert on a ladder strategy with a venue stop, over many futures bots', () => {
  it('rests every take-profit and every stop, in a few statements a trade', async () => {
    const statements = await countStatements(async () => {
      const { alertId } = await sendSignal(t.app, strategy, { action: 'long', ticker: 'BTCUSDT' });
      expect(await waitForAlert(t, alertId)).toBe('succeeded');
    });
    const { rows } = await t.db.pool.query(
      `SELECT t.id,
              (SELECT count(*)::int FROM orders o WHERE o.trade_id = t.id AND o.role LIKE 'tp%'
                 AND o.status = 'open') AS tps,
              (SELECT count(*)::int FROM venue_stops s WHERE s.trade_id = t.id AND s.status = 'open') AS stops
         FROM trades t WHERE t.strategy_id = $1`,
      [strategy.id],
    );
    expect(rows).toHaveLength(BOTS);
    expect(rows.filter((r) => r.tps !== 2 || r.stops !== 1)).toEqual([]);
    // The whole alert: claim, fan-out, entries, set-ups, outcomes (and this test's polls of the alert). Measured:
    // 45 a trade with one set-up after another, about 20 in groups, 18.5 before the paper venue kept a futures
    // account's positions in its transaction (read with the batch, written with it), about 13 since.
    expect(statements / BOTS).toBeLessThan(16);
  });
});
