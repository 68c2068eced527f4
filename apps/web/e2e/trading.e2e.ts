// Issues 5 and 6 in a browser, against the real server and its worker: a paper account, a
// strategy, a bot made with the wizard, then TradingView signals turned into a trade on BotDetail.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Envelope, type TestUser, appUrl, callApi, registerUser, setupBrowser } from './support';

const web = setupBrowser();

/** What the journeys hand to each other (tests in a file run in order). */
const state: { trader?: TestUser; strategyKey?: string; secret?: string; botId?: string } = {};

function trader(): TestUser {
  if (!state.trader) throw new Error('the first journey registers the trader');
  return state.trader;
}

/** Reloads until `ready` holds: the worker acts on an alert within a second or so. */
async function reloadUntil(page: Page, ready: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error('the page never showed what was expected');
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
  }
}

async function sendSignal(action: 'long' | 'exit') {
  const response = await callApi('/webhooks/tradingview', {
    body: { strategyKey: state.strategyKey, secret: state.secret, action },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

describe('trading accounts, strategies and bots', () => {
  it('connects a paper account and shows its balance', async () => {
    state.trader = await registerUser();
    const page = await web.newPage({ session: trader() });
    await page.goto(appUrl('/accounts'));
    await page.getByText('No trading account yet').waitFor();
    await page.getByRole('button', { name: 'Connect a paper account' }).click();

    const dialog = page.getByRole('dialog', { name: 'Connect a trading account' });
    expect(await dialog.getByLabel('Venue').inputValue(), 'paper comes first').toBe('paper');
    await dialog.getByLabel('Nickname').fill('Paper e2e');
    await dialog.getByLabel('Starting balance').fill('25000');
    // A double click connects one account (issue 21: it connected two).
    await dialog.getByRole('button', { name: 'Connect' }).dblclick();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Paper e2e/ });
    await row.getByText('25,000.00').waitFor();
    expect(await row.innerText()).toContain('Connected');
    const accounts = await callApi<Envelope<Array<{ nickname: string }>>>('/api/trading-accounts', {
      token: trader().apiToken,
    });
    expect(accounts.body.results.map((account) => account.nickname)).toEqual(['Paper e2e']);
  });

  it('creates a strategy and shows its webhook, secret and alert message', async () => {
    const page = await web.newPage({ session: trader() });
    await page.goto(appUrl('/bots?tab=strategies'));
    await page.getByRole('button', { name: 'New strategy' }).first().click();
    const form = page.getByRole('dialog', { name: 'New strategy' });
    state.strategyKey = `e2e-trend-${Date.now()}`;
    await form.getByLabel('Name', { exact: true }).fill('E2E trend');
    await form.getByLabel('Strategy key').fill(state.strategyKey);
    // A double click creates one strategy.
    await form.getByRole('button', { name: 'Create strategy' }).dblclick();

    const webhook = page.getByRole('dialog', { name: 'Webhook of E2E trend' });
    expect(await webhook.innerText()).toContain(`/webhooks/${state.strategyKey}`);
    await webhook.getByRole('button', { name: 'Show' }).click();
    state.secret = (await webhook.getByTestId('webhook-secret').innerText()).trim();
    expect(state.secret.length).toBeGreaterThan(15);
    const message = JSON.parse(await webhook.getByTestId('alert-message').innerText()) as Record<
      string,
      string
    >;
    expect(message).toMatchObject({ strategyKey: state.strategyKey, secret: state.secret, action: 'long' });
    await webhook.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByRole('row', { name: /E2E trend/ }).waitFor();
    const strategies = await callApi<Envelope<Array<{ nickname: string }>>>('/api/strategies', {
      token: trader().apiToken,
    });
    // One strategy for the double click (the list also holds what other files' admins made on this server).
    expect(strategies.body.results.filter((strategy) => strategy.nickname === 'E2E trend')).toHaveLength(1);
  });

  it('creates a bot through the wizard, saved paused, then switches it on', async () => {
    const page = await web.newPage({ session: trader() });
    await page.goto(appUrl('/bots'));
    await page.getByRole('button', { name: 'New bot' }).click();
    const wizard = page.getByRole('dialog', { name: 'Create a bot' });
    const next = () => wizard.getByRole('button', { name: 'Next' }).click();

    await next();
    await wizard.getByText('This field is required').waitFor();
    await wizard.getByLabel('Name').fill('E2E follower');
    await next();
    await wizard.getByRole('radio', { name: /Paper e2e/ }).check();
    await next();
    await wizard.getByRole('radio', { name: /E2E trend/ }).check();
    await next();
    expect(await wizard.getByLabel('Trade currency').inputValue()).toBe('BTC');
    await next();
    await wizard.getByLabel('Share of the account', { exact: true }).fill('120');
    await next();
    await wizard.getByText('A share of the account is at most 100%').waitFor();
    await wizard.getByLabel('Share of the account', { exact: true }).fill('20');
    await next();
    await wizard.getByRole('radio', { name: /Save paused/ }).check();
    await next();
    await wizard.getByText('Step 7 of 7: Review').waitFor();
    await wizard.getByRole('button', { name: 'Create paused' }).click();
    await wizard.waitFor({ state: 'detached' });

    const link = page.getByRole('link', { name: 'E2E follower' });
    state.botId = (await link.getAttribute('href'))?.split('/').pop();
    const toggle = page.getByRole('switch', { name: 'Active: E2E follower' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    // Hold the PUT: the switch must flip before the server answers (optimistic, spec §4).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/bots\/[^/?]+$/, async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      await held;
      return route.continue();
    });
    await toggle.click();
    // The bot's switch as shown (the phone card's copy is hidden at this width).
    await page.getByRole('switch', { name: 'Active: E2E follower', checked: true }).waitFor();
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
    release();
    expect((await saved).ok()).toBe(true);

    await page.reload();
    await page.getByText('1 bot · 1 active').waitFor();
    expect(await page.getByRole('switch').first().getAttribute('aria-checked')).toBe('true');
  });

  // A toggle sends `{ is_active }` alone and must leave every other setting as it was.
  it('keeps the name and leverage of a bot switched with PUT { is_active }', async () => {
    const token = trader().apiToken;
    const futures = await callApi<Envelope<{ id: string }>>('/api/trading-accounts', {
      token,
      body: { nickname: 'Futures e2e', exchange: 'paper', marketType: 'future' },
    });
    const strategies = await callApi<Envelope<Array<{ id: string }>>>('/api/strategies', { token });
    const created = await callApi<Envelope<{ id: string }>>('/api/bots', {
      token,
      body: {
        nickname: 'Keeps its name',
        strategy_id: strategies.body.results[0]?.id,
        trading_account_id: futures.body.results.id,
        fixed_amount: '100',
        leverage_percent: '300',
      },
    });
    const switched = await callApi<Envelope<{ nickname: string; leveragePercent: string }>>(
      `/api/bots/${created.body.results.id}`,
      { method: 'PUT', token, body: { is_active: true } },
    );
    await callApi(`/api/bots/${created.body.results.id}`, { method: 'DELETE', token });
    expect(switched.body.results.nickname).toBe('Keeps its name');
    expect(Number(switched.body.results.leveragePercent)).toBe(300);
  });

  it('shows the open trade after a long signal, and the closed one after exit', async () => {
    const page = await web.newPage({ session: trader() });
    await sendSignal('long');
    await page.goto(appUrl(`/bot/${state.botId}`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    const trades = page.getByRole('table', { name: 'Trades' });
    const heading = page.getByRole('heading', { level: 1 });
    // The trade row comes first, the bot's position once the entry order has filled.
    await reloadUntil(
      page,
      async () =>
        (await trades.getByText('Open').isVisible()) && (await heading.getByText('Long').isVisible()),
    );
    const open = trades.getByRole('row').nth(1);
    expect(await open.innerText()).toMatch(/BTC\/USDT\s+▲ Long/);

    await sendSignal('exit');
    await reloadUntil(
      page,
      async () =>
        (await trades.getByText('Closed').isVisible()) && (await heading.getByText('Out').isVisible()),
    );
    const closed = await trades.getByRole('row').nth(1).innerText();
    expect(closed, 'exit price and a signed PnL').toMatch(/[+-]\d+\.\d{2}/);

    await trades.getByRole('row').nth(1).click();
    await page.waitForURL(/\/trade\//);
  });
  it('deletes the bot from BotDetail, then the account, each after a confirmation', async () => {
    const page = await web.newPage({ session: trader() });
    await page.goto(appUrl(`/bot/${state.botId}`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirmBot = page.getByRole('alertdialog');
    expect(await confirmBot.innerText()).toContain('Its past trades stay in your history');
    await confirmBot.getByRole('button', { name: 'Delete bot' }).click();
    await page.waitForURL((url) => url.pathname === '/bots');
    await page.getByText('0 bots · 0 active').waitFor();

    await page.goto(appUrl('/accounts'));
    await page.getByRole('button', { name: 'Delete Paper e2e' }).click();
    const confirmAccount = page.getByRole('alertdialog', { name: 'Delete Paper e2e?' });
    await confirmAccount.getByRole('button', { name: 'Delete account' }).click();
    await confirmAccount.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Paper e2e/ }).waitFor({ state: 'detached' });
  });
});
