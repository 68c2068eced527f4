// Issue 9 in a browser, as the run's admin, against the real server and its worker: filter the
// alerts, mark one dead with a reason and resume it; push a strategy to take profit after the
// confirmation; process a month and open the invoice it made.
//
// Two arrangements no API can make go straight to the database (withDatabase):
// - an alert waiting for its retry: the paper venue never fails transiently, so the engine settles
//   every alert within a second and there is nothing left to mark dead;
// - a trade closed in a month that is over: the server stamps closed_at with the time it closes,
//   and only a month that is over can be processed.
// Screenshots of the four admin screens in both themes on demand:
// E2E_SCREENSHOTS=1 npx vitest run --project e2e admin
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Envelope,
  type TestUser,
  adminUser,
  appUrl,
  callApi,
  registerUser,
  screenshot,
  setupBrowser,
  withDatabase,
} from './support';

const web = setupBrowser();

interface Fixture {
  admin: TestUser;
  trader: TestUser;
  strategy: { id: string; strategyKey: string; webhookSecret: string };
  /** The alert held in the queue for the alerts journey. */
  heldAlertId?: string;
}
let fixture: Fixture | undefined;

async function post<T>(user: TestUser, path: string, body: unknown, method = 'POST'): Promise<T> {
  const response = await callApi<Envelope<T>>(path, { token: user.apiToken, body, method });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body.results;
}

interface BotStatus {
  nickname: string;
  trade: { id: string } | null;
  openOrders: number;
}

async function botsOfStrategy(): Promise<BotStatus[]> {
  const { admin, strategy } = await arrange();
  const response = await callApi<Envelope<{ bots: BotStatus[] }>>(
    `/admin/strategies/${strategy.id}/trades/status`,
    {
      token: admin.apiToken,
    },
  );
  return response.body.results.bots;
}

async function eventually(ready: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function signal(action: 'long' | 'exit') {
  const { strategy } = await arrange();
  const response = await callApi('/webhooks/tradingview', {
    body: { strategyKey: strategy.strategyKey, secret: strategy.webhookSecret, action },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** A signal of its own (an id: never taken for a retry of an earlier one), settled by the worker. */
async function settledSignal(action: 'long' | 'exit'): Promise<void> {
  const { admin, strategy } = await arrange();
  const id = `e2e-${action}-${Date.now()}`;
  const response = await callApi<Envelope<{ alertId: string }>>('/webhooks/tradingview', {
    body: { strategyKey: strategy.strategyKey, secret: strategy.webhookSecret, action, id },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const alertId = response.body.results.alertId;
  await eventually(async () => {
    const alerts = await callApi<Envelope<Array<{ id: string; status: string }>>>(
      `/admin/alerts?strategyKey=${encodeURIComponent(strategy.strategyKey)}`,
      { token: admin.apiToken },
    );
    const status = alerts.body.results.find((alert) => alert.id === alertId)?.status;
    return status !== undefined && status !== 'queued' && status !== 'in_progress';
  }, `the worker settled the ${action} alert`);
}

const tradeOf = (bots: BotStatus[], nickname: string) => bots.find((bot) => bot.nickname === nickname)?.trade;

/**
 * A trader with a paper account, a strategy with a two-rung take-profit ladder and an active bot,
 * and a `long` signal turned into an open trade with its ladder resting.
 */
async function arrange(): Promise<Fixture> {
  if (fixture) return fixture;
  const admin = await adminUser();
  const trader = await registerUser();
  const account = await post<{ id: string }>(trader, '/api/trading-accounts', {
    nickname: 'Paper admin e2e',
    exchange: 'paper',
    startingBalance: '20000',
  });
  const strategy = await post<Fixture['strategy']>(trader, '/api/strategies', {
    nickname: 'Admin ladder',
    strategyKey: `admin-e2e-${Date.now()}`,
    tradeCurrency: 'BTC',
    timeFrame: '1h',
    takeProfits: [
      { percent: '2', sizePercent: '50' },
      { percent: '4', sizePercent: '50' },
    ],
  });
  await post(trader, '/api/bots', {
    nickname: 'Ladder follower',
    strategy_id: strategy.id,
    trading_account_id: account.id,
    portfolio_percent: '10',
    is_active: true,
  });
  fixture = { admin, trader, strategy };
  await signal('long');
  await eventually(async () => {
    const [bot] = await botsOfStrategy();
    return Boolean(bot?.trade) && (bot?.openOrders ?? 0) >= 2;
  }, 'the long signal opened a trade with its take-profit ladder');
  return fixture;
}

/** Shortcut (see the top of the file): an alert of the strategy, failed once, its retry due tomorrow. */
async function holdAlertForRetry(): Promise<string> {
  const { strategy } = await arrange();
  return withDatabase(async (db) => {
    const payload = { strategyKey: strategy.strategyKey, action: 'long', symbol: 'BTC/USDT' };
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO alerts (strategy_id, strategy_key, dedupe_key, action, symbol, payload, status, attempts,
                           next_attempt_at, last_error, received_at, started_at)
       VALUES ($1, $2, $3, 'long', 'BTC/USDT', $4, 'queued', 1, now() + interval '1 day', $5,
               now() - interval '2 minutes', now() - interval '110 seconds')
       RETURNING id`,
      [strategy.id, strategy.strategyKey, `e2e-held-${Date.now()}`, payload, 'Venue timeout'],
    );
    const id = rows[0]!.id;
    await db.query(
      `INSERT INTO alert_events (alert_id, from_status, to_status, actor, error, at) VALUES
         ($1, NULL, 'queued', 'webhook', NULL, now() - interval '2 minutes'),
         ($1, 'queued', 'in_progress', 'worker:e2e', NULL, now() - interval '110 seconds'),
         ($1, 'in_progress', 'failed', 'worker:e2e', 'Venue timeout', now() - interval '100 seconds'),
         ($1, 'failed', 'queued', 'system', NULL, now() - interval '100 seconds' + interval '1 millisecond')`,
      [id],
    );
    return id;
  });
}

/** Shortcut (see the top of the file): the trade, closed, lands in the previous month, +250 USDT. */
async function closeTradeLastMonth(userId: string, tradeId: string) {
  await withDatabase((db) =>
    db.query(
      `UPDATE trades SET realised_pnl = 250,
              closed_at = date_trunc('month', now()) - interval '10 days',
              opened_at = date_trunc('month', now()) - interval '11 days'
        WHERE user_id = $1 AND id = $2 AND status = 'closed'`,
      [userId, tradeId],
    ),
  );
}

async function heading(page: Page, name: string) {
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

describe('admin consoles', () => {
  it('filters the alerts, marks one dead with a reason, then resumes it', async () => {
    const { admin, strategy } = await arrange();
    const alertId = await holdAlertForRetry();
    fixture!.heldAlertId = alertId;
    const page = await web.newPage({ session: admin });
    await page.goto(appUrl('/admin/alerts'));
    await heading(page, 'Alerts');

    await page.getByLabel('Status').selectOption('queued');
    await page.getByLabel('Strategy key').fill(strategy.strategyKey);
    // The browser runs in UTC. The held alert was received 2 minutes before it was made: its own day, not
    // today's (a run just past midnight UTC filtered it out).
    const from = new Date(Date.now() - 5 * 60_000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(from);
    // The filters live in the URL (history.pushState, no navigation).
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
      .toEqual({
        status: 'queued',
        strategyKey: strategy.strategyKey,
        from,
      });
    const table = page.getByRole('table', { name: 'Alerts' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // header + the held alert

    await table.getByRole('button', { name: 'Mark dead' }).click();
    const markDead = page.getByRole('alertdialog', { name: 'Mark this alert dead?' });
    await markDead.getByRole('button', { name: 'Mark dead' }).click();
    await markDead.getByText('A reason is required to mark an alert dead').waitFor();
    await markDead.getByLabel('Reason').fill('Duplicate of a signal already traded');
    await markDead.getByRole('button', { name: 'Mark dead' }).click();
    await page.getByText('Alert marked dead').waitFor();
    await page.getByText('No alert matches these filters').waitFor();

    await page.getByLabel('Status').selectOption('dead');
    await table.getByText('Dead').waitFor();
    await table.getByRole('button', { name: /Open the alert received/ }).click();
    const drawer = page.getByRole('dialog', { name: /Alert/ });
    await drawer.getByText('Duplicate of a signal already traded').first().waitFor();
    expect(new URL(page.url()).searchParams.get('alert')).toBe(alertId);

    await drawer.getByRole('button', { name: 'Resume' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Resume this alert?' });
    await confirm.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Alert resumed: back in the queue').waitFor();

    // Back in the queue, due now: the worker runs it (the bot is already long, so it skips).
    await expect
      .poll(
        async () => {
          await page.reload();
          await drawer.getByText('History').waitFor();
          return drawer.getByRole('heading', { level: 2 }).innerText();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toContain('Succeeded');
    expect(await drawer.innerText()).toMatch(/Administrator/);
    expect(await drawer.getByText('Nothing to do: already long').count()).toBe(1);
  });

  it('lists a webhook refused for its secret, with the strategy it names and why (issue 21)', async () => {
    const { admin, strategy } = await arrange();
    const refused = await callApi(`/webhooks/${strategy.strategyKey}`, {
      body: { secret: 'a-misconfigured-tradingview-alert', action: 'long' },
    });
    expect(refused.status).toBe(401);
    const page = await web.newPage({ session: admin });
    await page.goto(appUrl('/admin/alerts'));
    await heading(page, 'Alerts');
    // Refusals are written every 5 s (counted in memory first): the console shows them on a later read.
    const row = page
      .getByRole('table', { name: 'Refused webhooks (last 24 hours)' })
      .getByRole('row')
      .filter({ hasText: strategy.strategyKey });
    await expect
      .poll(
        async () => {
          await page.reload();
          await heading(page, 'Alerts');
          return row.count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);
    expect(await row.innerText()).toContain('INVALID_WEBHOOK_SECRET');
    expect(await page.content()).not.toContain('a-misconfigured-tradingview-alert');
  });

  it('pushes a strategy to take profit after the confirmation and shows each bot’s outcome', async () => {
    const { admin, strategy } = await arrange();
    const page = await web.newPage({ session: admin });
    await page.goto(appUrl(`/admin/trade-control?strategy=${strategy.id}`));
    await heading(page, 'Trade control');
    const bots = page.getByRole('table', { name: 'Bots of the strategy' });
    await bots.getByText('Ladder follower').waitFor();
    expect(await bots.innerText()).toMatch(/BTC\/USDT\s*▲\s*Long/);

    // Each bot's trade at the venue's last price (issue 21).
    expect(await bots.innerText()).toMatch(/Last [\d,]+\.\d{2} USDT/);

    await page.getByRole('button', { name: 'Push to take profit' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Push Admin ladder to take profit?' });
    expect(await confirm.innerText()).toContain('This cannot be undone.');
    // What it reaches now, priced (issue 21): one user, one trade, TP1's part at the last price.
    const scope = confirm.getByRole('region', { name: 'What this reaches now' });
    await scope.waitFor();
    expect(await scope.innerText()).toMatch(
      /Users\s+1\s+Trades\s+1\s+Notional at the last price\s+[\d,.]+ USDT/,
    );
    expect(await scope.innerText()).toMatch(/Estimated PnL\s+[▲▼■]\s*(Gain|Loss|Flat)?\s*[+-][\d,.]+ USDT/);
    // The push waits for the strategy's name, typed out.
    const run = confirm.getByRole('button', { name: 'Push to take profit' });
    expect(await run.isDisabled()).toBe(true);
    await confirm.getByLabel('Type Admin ladder to confirm').fill('Admin ladder');
    // A double click pushes once: TP1 goes, TP2 keeps resting and the trade stays open.
    await run.dblclick();

    const outcome = page.getByRole('region', { name: 'Outcome of the last action' });
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/Done\s+1\s+Skipped\s+0\s+Failed\s+0/);
    await outcome.getByText(/Successfully pushed TP1 to market! Order ID:/).waitFor();
    const [bot] = await botsOfStrategy();
    expect(bot?.trade).toBeTruthy();
    expect(bot?.openOrders).toBe(1);
  });

  it('closes one bot’s trade only, then pauses the strategy so the next alert opens nothing', async () => {
    const { admin, trader, strategy } = await arrange();
    // A second bot on the strategy (its own account) follows the next long into a trade of its own.
    const second = await post<{ id: string }>(trader, '/api/trading-accounts', {
      nickname: 'Paper second e2e',
      exchange: 'paper',
      startingBalance: '20000',
    });
    await post(trader, '/api/bots', {
      nickname: 'Second follower',
      strategy_id: strategy.id,
      trading_account_id: second.id,
      portfolio_percent: '10',
      is_active: true,
    });
    await settledSignal('long');
    await eventually(
      async () => Boolean(tradeOf(await botsOfStrategy(), 'Second follower')),
      'a second trade',
    );
    const firstTrade = tradeOf(await botsOfStrategy(), 'Ladder follower');
    const secondTrade = tradeOf(await botsOfStrategy(), 'Second follower');
    expect(firstTrade).toBeTruthy();

    const page = await web.newPage({ session: admin });
    await page.goto(appUrl(`/admin/trade-control?strategy=${strategy.id}`));
    await heading(page, 'Trade control');
    const bots = page.getByRole('table', { name: 'Bots of the strategy' });
    await bots.getByRole('button', { name: 'Close trade (Second follower)' }).click();
    const close = page.getByRole('alertdialog', { name: 'Close the trade of Second follower?' });
    expect(await close.innerText()).toMatch(/Last price [\d,.]+ USDT · estimated result [+-][\d,.]+ USDT/);
    // A double click closes it once; the other bot's trade is left as it was.
    await close.getByRole('button', { name: 'Close trade' }).dblclick();
    await eventually(
      async () => !tradeOf(await botsOfStrategy(), 'Second follower'),
      'the second trade closed',
    );
    expect(tradeOf(await botsOfStrategy(), 'Ladder follower')?.id).toBe(firstTrade?.id);
    const closed = await callApi<Envelope<{ trade: { status: string }; orders: Array<{ role: string }> }>>(
      `/api/trades/${secondTrade?.id}`,
      { token: trader.apiToken },
    );
    expect(closed.body.results.trade.status).toBe('closed');
    expect(closed.body.results.orders.filter((order) => order.role === 'exit')).toHaveLength(1);
    await bots.getByRole('button', { name: 'Close trade (Second follower)' }).waitFor({ state: 'detached' });

    // "Pause strategy" (a double click pauses once): the next long opens nothing for any bot.
    await page.getByRole('button', { name: 'Pause strategy' }).click();
    const pause = page.getByRole('alertdialog', { name: 'Pause Admin ladder?' });
    await pause.getByRole('button', { name: 'Pause strategy' }).dblclick();
    await page.getByText('Admin ladder is paused').first().waitFor();
    await page.getByRole('button', { name: 'Resume strategy' }).waitFor();
    await settledSignal('long');
    expect(tradeOf(await botsOfStrategy(), 'Second follower')).toBeNull();

    // Resumed, the world is as the next journeys expect it.
    await page.getByRole('button', { name: 'Resume strategy' }).click();
    await page
      .getByRole('alertdialog', { name: 'Resume Admin ladder?' })
      .getByRole('button', { name: 'Resume strategy' })
      .click();
    await page.getByRole('button', { name: 'Pause strategy' }).waitFor();
  });

  it('processes a month and opens the invoice it made', async () => {
    const { admin, trader } = await arrange();
    const billed = tradeOf(await botsOfStrategy(), 'Ladder follower');
    await signal('exit');
    await eventually(
      async () => !tradeOf(await botsOfStrategy(), 'Ladder follower'),
      'the exit signal closed the trade',
    );
    await closeTradeLastMonth(trader.user.id, billed?.id ?? '');
    // Auto charge: processing the month opens the invoice (the manual provider leaves it open).
    await post(
      admin,
      '/admin/billing/user',
      { userId: trader.user.id, percent: '20', active: true, autoCharge: true },
      'PUT',
    );

    const page = await web.newPage({ session: admin });
    await page.goto(appUrl('/admin/billing?active=true'));
    await heading(page, 'Billing');
    const row = page.getByRole('row', { name: new RegExp(trader.email) });
    await row.waitFor();

    await page.getByRole('button', { name: 'Process a month' }).click();
    const picker = page.getByRole('dialog', { name: 'Process a month' });
    await picker.getByRole('button', { name: 'Continue' }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Process \w+ \d{4}\?$/ });
    await confirm.getByRole('button', { name: /^Process \w+ \d{4}$/ }).click();
    const result = page.getByRole('dialog', { name: /processed$/ });
    await result.waitFor();
    expect(await result.innerText()).toMatch(/Invoices opened \(auto charge\)\s+1/);
    expect(await result.innerText()).toMatch(/Total fees of the month\s+50\.00 USDT/);
    await result.getByRole('button', { name: 'Close', exact: true }).last().click();

    await row.getByRole('link', { name: /INV-/ }).click();
    await page.waitForURL(/\/admin\/billing\/user\/[^?]+\?invoice=/);
    const invoice = page.getByRole('dialog', { name: /^Invoice INV-/ });
    await invoice.waitFor();
    const text = await invoice.innerText();
    expect(text).toMatch(/Amount\s+50\.00 USDT/);
    expect(text).toContain('Open');
    expect(text).toContain(trader.email);
  });
});

describe.skipIf(!process.env.E2E_SCREENSHOTS)('admin screens', () => {
  it('screenshots the four admin screens in both themes', async () => {
    const { admin, trader, strategy, heldAlertId } = await arrange();
    for (const theme of ['dark', 'light'] as const) {
      const page = await web.newPage({ session: admin, theme });
      const shots: Array<[string, string, string]> = [
        ['alerts', '/admin/alerts', 'Alerts'],
        ['alert-drawer', `/admin/alerts${heldAlertId ? `?alert=${heldAlertId}` : ''}`, 'Alerts'],
        ['trade-control', `/admin/trade-control?strategy=${strategy.id}`, 'Trade control'],
        ['billing', '/admin/billing', 'Billing'],
        ['user-billing', `/admin/billing/user/${trader.user.id}`, trader.email],
      ];
      for (const [name, path, title] of shots) {
        await page.goto(appUrl(path));
        await heading(page, title);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(300);
        await screenshot(page, `admin/${name}-${theme}`, { fullPage: true });
      }
    }
  });
});
