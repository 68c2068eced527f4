// Issue 21 in a browser, against the real server: a double click on an action that costs money or state yields
// one result. The creates and the per-trade actions are checked in bots, trading, trades, orders and admin; here:
// saving a bot's edit, every delete (bot, strategy, trading account, invite, another device's session), an
// invite link, a user's billing plan and the operator's strategy-wide "Cancel orders" and "Close positions".
//
// "One result" is read from the server, not the screen: the request the server ran (its Idempotency-Key row —
// every write the web sends carries one, and the server keeps one row per key it ran), the thing gone, the
// audit log's one row. A second request refused (404, 409) would fail the test too: the harness fails a test
// on any HTTP error a page meets.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Envelope,
  type TestUser,
  adminUser,
  appUrl,
  callApi,
  loginUser,
  post,
  registerUser,
  setupBrowser,
  withDatabase,
} from './support';

const web = setupBrowser();

/** The writes the server ran for the user on this method and path: one row per Idempotency-Key it honoured. */
async function writesRun(user: TestUser, method: string, path: string): Promise<number> {
  return withDatabase(async (db) => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = $1 AND method = $2 AND path = $3',
      [user.user.id, method, path],
    );
    return rows[0]!.n;
  });
}

/** The writes a page sent on a path: method and Idempotency-Key of each. */
function sentWrites(page: Page, path: RegExp): Array<{ method: string; key: string | undefined }> {
  const sent: Array<{ method: string; key: string | undefined }> = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' || !path.test(new URL(request.url()).pathname)) return;
    sent.push({ method: request.method(), key: request.headers()['idempotency-key'] });
  });
  return sent;
}

async function eventually(ready: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function heading(page: Page, name: string | RegExp) {
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** A trader with a paper account, a strategy of their own and a paused bot on both. */
async function traderWithBot(names: { account: string; strategy: string; bot: string }) {
  const trader = await registerUser();
  const account = await post<{ id: string }>(trader, '/api/trading-accounts', {
    nickname: names.account,
    exchange: 'paper',
    marketType: 'spot',
    startingBalance: '10000',
  });
  const strategy = await post<{ id: string }>(trader, '/api/strategies', {
    nickname: names.strategy,
    tradeCurrency: 'BTC',
    timeFrame: '1h',
  });
  const bot = await post<{ id: string }>(trader, '/api/bots', {
    nickname: names.bot,
    strategy_id: strategy.id,
    trading_account_id: account.id,
    portfolio_percent: '10',
    is_active: false,
  });
  return { trader, accountId: account.id, strategyId: strategy.id, botId: bot.id };
}

describe('a double click on a trader’s save or delete runs it once', () => {
  it('saves a bot’s edit once', async () => {
    const { trader, botId } = await traderWithBot({
      account: 'Paper edit',
      strategy: 'Edit strategy',
      bot: 'Before the edit',
    });
    const page = await web.newPage({ session: trader });
    const sent = sentWrites(page, /^\/api\/bots\//);
    await page.goto(appUrl(`/bot/${botId}`));
    await heading(page, /Before the edit/);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Before the edit' });
    await dialog.getByLabel('Name').fill('After the edit');
    await dialog.getByRole('button', { name: 'Save', exact: true }).dblclick();
    await page.getByText('After the edit is saved').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const bot = await callApi<Envelope<{ nickname: string }>>(`/api/bots/${botId}`, {
      token: trader.apiToken,
    });
    expect(bot.body.results.nickname).toBe('After the edit');
    expect(await writesRun(trader, 'PUT', `/api/bots/${botId}`)).toBe(1);
    expect(sent.filter((write) => write.method === 'PUT')).toHaveLength(1);
  });

  it('deletes a bot once', async () => {
    const { trader, botId } = await traderWithBot({
      account: 'Paper bot delete',
      strategy: 'Bot delete strategy',
      bot: 'Doomed bot',
    });
    const page = await web.newPage({ session: trader });
    const sent = sentWrites(page, /^\/api\/bots\//);
    await page.goto(appUrl(`/bot/${botId}`));
    await heading(page, /Doomed bot/);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Doomed bot?' });
    await confirm.getByRole('button', { name: 'Delete bot' }).dblclick();
    await page.getByText('Doomed bot is deleted').waitFor();
    await heading(page, 'Bots');

    const bots = await callApi<Envelope<unknown[]>>('/api/bots', { token: trader.apiToken });
    expect(bots.body.results).toEqual([]);
    expect(await writesRun(trader, 'DELETE', `/api/bots/${botId}`)).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('deletes a strategy once', async () => {
    const trader = await registerUser();
    const strategy = await post<{ id: string }>(trader, '/api/strategies', {
      nickname: 'Doomed strategy',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
    });
    const page = await web.newPage({ session: trader });
    const sent = sentWrites(page, /^\/api\/strategies\//);
    await page.goto(appUrl('/bots?tab=strategies'));
    await page.getByRole('button', { name: 'Delete Doomed strategy' }).first().click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Doomed strategy?' });
    await confirm.getByRole('button', { name: 'Delete strategy' }).dblclick();
    await page.getByText('Doomed strategy is deleted').waitFor();

    const mine = await callApi<Envelope<Array<{ id: string }>>>('/api/strategies', {
      token: trader.apiToken,
    });
    expect(mine.body.results.map((s) => s.id)).not.toContain(strategy.id);
    expect(await writesRun(trader, 'DELETE', `/api/strategies/${strategy.id}`)).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('deletes a trading account and its bot once', async () => {
    const { trader, accountId } = await traderWithBot({
      account: 'Doomed account',
      strategy: 'Account delete strategy',
      bot: 'Account bot',
    });
    const page = await web.newPage({ session: trader });
    const sent = sentWrites(page, /^\/api\/trading-accounts\//);
    await page.goto(appUrl('/accounts'));
    await page.getByRole('button', { name: 'Delete Doomed account' }).first().click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Doomed account?' });
    await confirm.getByLabel('Also delete its bot').check();
    await confirm.getByRole('button', { name: 'Delete account' }).dblclick();
    await page.getByText('Doomed account is deleted').waitFor();
    await confirm.waitFor({ state: 'detached' });

    const accounts = await callApi<Envelope<unknown[]>>('/api/trading-accounts', { token: trader.apiToken });
    expect(accounts.body.results).toEqual([]);
    expect(await writesRun(trader, 'DELETE', `/api/trading-accounts/${accountId}?bots=delete`)).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('signs another device out once', async () => {
    const trader = await registerUser();
    // A second sign-in: the device to revoke.
    await loginUser(trader.email, trader.password);
    const page = await web.newPage({ session: trader });
    const sent = sentWrites(page, /^\/auth\/sessions\//);
    await page.goto(appUrl('/settings?tab=security'));
    const revoke = page.getByRole('button', { name: /^Revoke / });
    await revoke.dblclick();
    await page.getByText('That device is signed out.').waitFor();
    await revoke.waitFor({ state: 'detached' });

    const sessions = await callApi<Envelope<Array<{ current: boolean }>>>('/auth/sessions', {
      token: trader.apiToken,
    });
    expect(sessions.body.results).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});

describe('a double click on an operator’s action runs it once', () => {
  it('creates one invite link', async () => {
    const admin = await adminUser();
    const note = `Made once ${Date.now()}`;
    const page = await web.newPage({ session: admin });
    await page.goto(appUrl('/admin/invites'));
    await heading(page, 'Invites');
    await page.getByLabel('For whom (only you see it)').fill(note);
    await page.getByRole('button', { name: 'Create invite link' }).dblclick();
    await page.getByRole('row', { name: new RegExp(note) }).waitFor();

    const invites = await callApi<Envelope<Array<{ note: string | null }>>>('/admin/invites?take=100', {
      token: admin.apiToken,
    });
    expect(invites.body.results.filter((invite) => invite.note === note)).toHaveLength(1);
    expect(await auditRowsAbout(admin, 'invite.create', note)).toBe(1);
  });

  it('revokes an invite once', async () => {
    const admin = await adminUser();
    const note = `Double click ${Date.now()}`;
    const invite = await post<{ id: string }>(admin, '/admin/invites', { note });
    const page = await web.newPage({ session: admin });
    const sent = sentWrites(page, /^\/admin\/invites\//);
    await page.goto(appUrl('/admin/invites'));
    await heading(page, 'Invites');
    await page.getByRole('button', { name: `Revoke the invite ${note}` }).dblclick();
    await page
      .getByRole('row', { name: new RegExp(note) })
      .getByText('Revoked')
      .waitFor();

    const rows = await auditRows(admin, 'invite.revoke', `invite:${invite.id}`);
    expect(rows.map((row) => row.outcome)).toEqual(['ok']);
    expect(sent).toHaveLength(1);
  });

  it('saves a user’s billing plan once', async () => {
    const admin = await adminUser();
    const trader = await registerUser();
    const page = await web.newPage({ session: admin });
    await page.goto(appUrl(`/admin/billing/user/${trader.user.id}`));
    await page.getByLabel('Profit share').fill('15');
    await page.getByRole('button', { name: 'Create plan' }).dblclick();
    await page.getByText('Plan created').waitFor();

    const rows = await auditRows(admin, 'billing.plan_update', `user:${trader.user.id}`);
    expect(rows.map((row) => row.outcome)).toEqual(['ok']);
  });

  it('cancels a strategy’s orders once, then closes its positions once', async () => {
    const admin = await adminUser();
    const trader = await registerUser();
    const account = await post<{ id: string }>(trader, '/api/trading-accounts', {
      nickname: 'Paper control',
      exchange: 'paper',
      startingBalance: '20000',
    });
    const strategy = await post<{ id: string; strategyKey: string; webhookSecret: string }>(
      trader,
      '/api/strategies',
      {
        nickname: 'Twice clicked',
        strategyKey: `double-click-${Date.now()}`,
        tradeCurrency: 'BTC',
        timeFrame: '1h',
        takeProfits: [
          { percent: '2', sizePercent: '50' },
          { percent: '4', sizePercent: '50' },
        ],
      },
    );
    await post(trader, '/api/bots', {
      nickname: 'Control follower',
      strategy_id: strategy.id,
      trading_account_id: account.id,
      portfolio_percent: '10',
      is_active: true,
    });
    const botStatus = async () => {
      const response = await callApi<
        Envelope<{ bots: Array<{ trade: { id: string } | null; openOrders: number }> }>
      >(`/admin/strategies/${strategy.id}/trades/status`, { token: admin.apiToken });
      return response.body.results.bots[0];
    };
    const signal = await callApi('/webhooks/tradingview', {
      body: { strategyKey: strategy.strategyKey, secret: strategy.webhookSecret, action: 'long' },
    });
    expect(signal.status, JSON.stringify(signal.body)).toBe(200);
    await eventually(async () => {
      const bot = await botStatus();
      return Boolean(bot?.trade) && (bot?.openOrders ?? 0) >= 2;
    }, 'the long signal opened a trade with its take-profit ladder');
    const tradeId = (await botStatus())!.trade!.id;

    const page = await web.newPage({ session: admin });
    const sent = sentWrites(page, /^\/admin\/strategies\//);
    await page.goto(appUrl(`/admin/trade-control?strategy=${strategy.id}`));
    await heading(page, 'Trade control');
    const bots = page.getByRole('table', { name: 'Bots of the strategy' });
    await bots.getByText('Control follower').waitFor();
    const outcome = page.getByRole('region', { name: 'Outcome of the last action' });

    await page.getByRole('button', { name: 'Cancel orders' }).click();
    const cancel = page.getByRole('alertdialog', { name: 'Cancel every open order of Twice clicked?' });
    await cancel.getByLabel('Type Twice clicked to confirm').fill('Twice clicked');
    await cancel.getByRole('button', { name: 'Cancel orders' }).dblclick();
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/Done\s+1\s+Skipped\s+0\s+Failed\s+0/);
    await cancel.waitFor({ state: 'detached' });
    expect(await auditRows(admin, 'strategy.cancel_orders', `strategy:${strategy.id}`)).toHaveLength(1);
    expect((await botStatus())?.openOrders).toBe(0);
    expect((await botStatus())?.trade?.id).toBe(tradeId);

    await page.getByRole('button', { name: 'Close positions' }).click();
    const close = page.getByRole('alertdialog', { name: 'Close every position of Twice clicked?' });
    await close.getByLabel('Type Twice clicked to confirm').fill('Twice clicked');
    await close.getByRole('button', { name: 'Close positions' }).dblclick();
    await close.waitFor({ state: 'detached' });
    await eventually(async () => !(await botStatus())?.trade, 'the close-positions closed the trade');
    expect(await auditRows(admin, 'strategy.close_positions', `strategy:${strategy.id}`)).toHaveLength(1);
    const closed = await callApi<Envelope<{ trade: { status: string }; orders: Array<{ role: string }> }>>(
      `/api/trades/${tradeId}`,
      { token: trader.apiToken },
    );
    expect(closed.body.results.trade.status).toBe('closed');
    expect(closed.body.results.orders.filter((order) => order.role === 'exit')).toHaveLength(1);
    expect(sent.map((write) => write.method)).toEqual(['POST', 'POST']);
  });
});

/** The audit log's rows of one action on one target (GET /admin/audit). */
async function auditRows(admin: TestUser, action: string, target: string) {
  const response = await callApi<Envelope<Array<{ target: string; outcome: string }>>>(
    `/admin/audit?action=${encodeURIComponent(action)}&take=100`,
    { token: admin.apiToken },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.results.filter((row) => row.target === target);
}

/** How many audit rows of one action mention `text` in their details. */
async function auditRowsAbout(admin: TestUser, action: string, text: string): Promise<number> {
  const response = await callApi<Envelope<Array<{ details: unknown }>>>(
    `/admin/audit?action=${encodeURIComponent(action)}&take=100`,
    { token: admin.apiToken },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.results.filter((row) => JSON.stringify(row.details).includes(text)).length;
}
