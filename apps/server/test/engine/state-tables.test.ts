import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTradeTransitionError, TRADE_STATUSES, canTransitionTrade } from '@kairos/core';
import { createAlertsRepo } from '../../src/engine/alerts-repo';
import { createTradesRepo } from '../../src/engine/trades-repo';
import { ADMIN_EMAIL, createStrategy } from '../admin/admin-fixtures';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';

/** Issue 15: every trade and alert status written by the engine goes through core's state tables. */
let t: TestApp;
let owner: Session;
let accountId: string;

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  owner = await registerUser(t.app, 'states@example.com');
  accountId = (await createPaperAccount(t.app, owner)).id;
});
afterAll(() => t.close());

async function tradeAt(status: string): Promise<string> {
  const { rows } = await t.db.pool.query(
    `INSERT INTO trades (user_id, trading_account_id, symbol, side, status)
     VALUES ($1, $2, 'BTC/USDT', 'long', $3) RETURNING id`,
    [owner.user.id, accountId, status],
  );
  return rows[0].id as string;
}

async function tradeRow(id: string) {
  const { rows } = await t.db.pool.query(
    'SELECT status, closed_at, close_reason, quantity FROM trades WHERE id = $1',
    [id],
  );
  return rows[0] as { status: string; closed_at: Date | null; close_reason: string | null; quantity: string };
}

const figures = {
  quantity: '0.5',
  entryPrice: '100',
  exitPrice: '110',
  entryNotional: '50',
  commission: '0.1',
  realisedPnl: '4.9',
  pnlPercent: '9.8',
};

describe("a trade's status moves only as core's table allows", () => {
  const pairs = TRADE_STATUSES.flatMap((from) => TRADE_STATUSES.map((to) => ({ from, to })));

  it.each(pairs)('updateTrade $from → $to', async ({ from, to }) => {
    const trades = createTradesRepo(t.db.db);
    const id = await tradeAt(from);
    const allowed = from === to || canTransitionTrade(from, to);
    if (allowed) {
      const row = await trades.updateTrade(id, { status: to, closeReason: 'admin close' });
      expect(row.status).toBe(to);
    } else {
      const refused = await trades
        .updateTrade(id, { status: to, closeReason: 'admin close' })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InvalidTradeTransitionError);
      expect(refused).toMatchObject({ code: 'INVALID_TRADE_TRANSITION', params: { from, to } });
      // Nothing of the refused change is written.
      expect(await tradeRow(id)).toMatchObject({ status: from, close_reason: null });
    }
  });

  it('a change without a status is written whatever the status', async () => {
    const trades = createTradesRepo(t.db.db);
    const id = await tradeAt('closed');
    expect((await trades.updateTrade(id, { closeReason: 'manual close' })).closeReason).toBe('manual close');
  });

  it("figures from the fills are written, but a closed trade's end is not rewritten by a late close", async () => {
    const trades = createTradesRepo(t.db.db);
    const id = await tradeAt('cancelled');
    const at = new Date('2026-01-02T03:04:05Z');
    const row = await trades.setFigures(id, figures, {
      status: 'closed',
      closedAt: at,
      closeReason: 'stop loss',
    });
    expect(row).toMatchObject({ status: 'cancelled', closedAt: null, closeReason: null, quantity: '0.5' });
  });

  it('an open trade is closed with its figures', async () => {
    const trades = createTradesRepo(t.db.db);
    const id = await tradeAt('closing');
    const at = new Date('2026-01-02T03:04:05Z');
    const row = await trades.setFigures(id, figures, {
      status: 'closed',
      closedAt: at,
      closeReason: 'stop loss',
    });
    expect(row).toMatchObject({ status: 'closed', closeReason: 'stop loss', quantity: '0.5' });
    expect(row.closedAt?.toISOString()).toBe(at.toISOString());
  });
});

describe("an alert's failure follows core's retry rule", () => {
  async function alertInProgress(attempts: number): Promise<string> {
    const strategy = await createStrategy(t, owner);
    const { rows } = await t.db.pool.query(
      `INSERT INTO alerts (strategy_id, strategy_key, dedupe_key, action, symbol, payload, status, attempts,
         max_attempts, locked_by, locked_until)
       VALUES ($1, $2, $3, 'long', 'BTC/USDT', '{}', 'in_progress', $4, 3, 'w1', now() + interval '1 minute')
       RETURNING id`,
      [strategy.id, strategy.strategyKey, `d-${attempts}-${Date.now()}`, attempts],
    );
    return rows[0].id as string;
  }

  it('is queued again while attempts remain, each step recorded', async () => {
    const alerts = createAlertsRepo(t.db.db);
    const id = await alertInProgress(2);
    expect(await alerts.fail(id, 'worker:w1', 'venue timeout', 1000)).toBe('queued');
    const events = await alerts.events(id);
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.actor])).toEqual([
      ['in_progress', 'failed', 'worker:w1'],
      ['failed', 'queued', 'system'],
    ]);
    expect(await alerts.findById(id)).toMatchObject({
      status: 'queued',
      lastError: 'venue timeout',
      lockedBy: null,
    });
  });

  it('is dead once they are used up, with why', async () => {
    const alerts = createAlertsRepo(t.db.db);
    const id = await alertInProgress(3);
    expect(await alerts.fail(id, 'worker:w1', 'venue timeout', 1000)).toBe('dead');
    const row = await alerts.findById(id);
    expect(row).toMatchObject({ status: 'dead', deadReason: 'retries exhausted' });
    expect(row?.finishedAt).not.toBeNull();
    expect((await alerts.events(id)).map((e) => e.toStatus)).toEqual(['failed', 'dead']);
  });

  it('does nothing to an alert no longer in progress', async () => {
    const alerts = createAlertsRepo(t.db.db);
    const id = await alertInProgress(1);
    await t.db.pool.query(`UPDATE alerts SET status = 'succeeded' WHERE id = $1`, [id]);
    expect(await alerts.fail(id, 'worker:w1', 'late', 0)).toBeUndefined();
    expect((await alerts.findById(id))?.status).toBe('succeeded');
  });
});
