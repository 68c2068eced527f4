import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, call } from './admin-fixtures';

/**
 * Issue 19: what a user deletes is gone from their screens, never from the books. A closed trade deleted,
 * or a whole account deleted, before month-end is still billed.
 */
let t: TestApp;
let admin: Session;
let hugo: Session;

function lastMonth() {
  const d = new Date();
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return { year: start.getUTCFullYear(), month: start.getUTCMonth() + 1, start };
}
const M = lastMonth();

async function closedTrade(accountId: string, pnl: string): Promise<string> {
  const closedAt = new Date(M.start.getTime() + 10 * 86_400_000);
  const { rows } = await t.db.pool.query(
    `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity, realised_pnl, opened_at, closed_at)
     VALUES ($1, $2, 'BTC/USDT', 'long', 'closed', '0.1', $3, $4, $5) RETURNING id`,
    [hugo.user.id, accountId, pnl, new Date(closedAt.getTime() - 3_600_000), closedAt],
  );
  return rows[0].id as string;
}

const api = (method: 'GET' | 'DELETE', url: string) =>
  t.app.inject({
    method,
    url,
    headers: bearer(hugo.apiToken),
    ...(method === 'DELETE' ? { payload: {} } : {}),
  });

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  hugo = await registerUser(t.app, 'hugo@example.com');
  const plan = await call(t, admin, 'PUT', '/admin/billing/user', { userId: hugo.user.id, percent: 20 });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
});
afterAll(() => t.close());

describe('deleting never unbooks money', () => {
  let kept: string;
  let deletedTrade: string;
  let archivedAccount: string;

  it("a deleted closed trade leaves the user's lists, and its detail answers 404", async () => {
    kept = (await createPaperAccount(t.app, hugo, { nickname: 'Kept' })).id;
    deletedTrade = await closedTrade(kept, '1000');
    const res = await api('DELETE', `/api/trades/${deletedTrade}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await api('GET', `/api/trades/${deletedTrade}`)).statusCode).toBe(404);
    const list = (await api('GET', '/api/trades')).json().results as { id: string }[];
    expect(list.map((x) => x.id)).not.toContain(deletedTrade);
    // Hidden, not deleted: the row and its PnL stay.
    const { rows } = await t.db.pool.query('SELECT realised_pnl, hidden_at FROM trades WHERE id = $1', [
      deletedTrade,
    ]);
    expect(rows[0]).toMatchObject({ realised_pnl: '1000' });
    expect(rows[0].hidden_at).not.toBeNull();
  });

  it("a deleted account leaves the user's lists and its keys are wiped, its trades stay", async () => {
    archivedAccount = (await createPaperAccount(t.app, hugo, { nickname: 'Gone' })).id;
    const trade = await closedTrade(archivedAccount, '500');
    const res = await api('DELETE', `/api/trading-accounts/${archivedAccount}`);
    expect(res.statusCode, res.body).toBe(200);
    const accounts = (await api('GET', '/api/trading-accounts')).json().results as { id: string }[];
    expect(accounts.map((a) => a.id)).toEqual([kept]);
    expect((await api('GET', `/api/trading-accounts/${archivedAccount}`)).statusCode).toBe(404);
    const { rows } = await t.db.pool.query(
      'SELECT archived_at, api_key_sealed, api_secret_sealed, passphrase_sealed FROM trading_accounts WHERE id = $1',
      [archivedAccount],
    );
    expect(rows[0]).toMatchObject({ api_key_sealed: null, api_secret_sealed: null, passphrase_sealed: null });
    expect(rows[0].archived_at).not.toBeNull();
    expect((await t.db.pool.query('SELECT 1 FROM trades WHERE id = $1', [trade])).rowCount).toBe(1);
  });

  it('bills the month with both profits in it', async () => {
    const res = await call(t, admin, 'POST', '/admin/billing/monthly/process', {
      year: M.year,
      month: M.month,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const records = await call(
      t,
      admin,
      'GET',
      `/admin/billing/records?userId=${hugo.user.id}&year=${M.year}&month=${M.month}`,
    );
    expect(records.body.results[0]).toMatchObject({ profit: '1500', fee: '300' });
  });

  it('an open trade still cannot be deleted, nor an account holding one', async () => {
    const { rows } = await t.db.pool.query(
      `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity)
       VALUES ($1, $2, 'BTC/USDT', 'long', 'open', '0.1') RETURNING id`,
      [hugo.user.id, kept],
    );
    expect((await api('DELETE', `/api/trades/${rows[0].id}`)).json()).toMatchObject({
      error: 'TRADE_NOT_CLOSED',
    });
    expect((await api('DELETE', `/api/trading-accounts/${kept}`)).statusCode).toBe(409);
  });
});
