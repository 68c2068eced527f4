// Issue 21 in a browser, against the real server: a double click on the bot wizard's "Create and go live"
// made two live bots 24 ms apart. It makes one.
import { describe, expect, it } from 'vitest';
import { type Envelope, appUrl, callApi, registerUser, setupBrowser } from './support';

const web = setupBrowser();

describe('bots', () => {
  it('creates one bot for a double click on "Create and go live"', async () => {
    const trader = await registerUser();
    const account = await callApi<Envelope<{ id: string }>>('/api/trading-accounts', {
      token: trader.apiToken,
      body: { nickname: 'Paper wizard', exchange: 'paper', marketType: 'spot', startingBalance: '10000' },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const strategy = await callApi<Envelope<{ id: string }>>('/api/strategies', {
      token: trader.apiToken,
      body: { nickname: 'Double click', tradeCurrency: 'BTC', timeFrame: '1h' },
    });
    expect(strategy.status, JSON.stringify(strategy.body)).toBe(201);

    const page = await web.newPage({ session: trader });
    await page.goto(appUrl('/bots'));
    await page.getByRole('button', { name: 'New bot' }).click();
    const wizard = page.getByRole('dialog', { name: 'Create a bot' });
    const next = () => wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Name').fill('Clicked twice');
    await next();
    await wizard.getByRole('radio', { name: /Paper wizard/ }).click();
    await next();
    await wizard.getByRole('radio', { name: /Double click/ }).click();
    await next();
    await next();
    await wizard.getByRole('radio', { name: /Fixed amount/ }).click();
    await wizard.getByLabel('Amount per trade').fill('100');
    await next();
    await wizard.getByRole('radio', { name: /Go live/i }).click();
    await next();

    await wizard.getByRole('button', { name: 'Create and go live' }).dblclick();
    await page.getByText('Clicked twice is live').waitFor();
    await wizard.waitFor({ state: 'detached' });

    const bots = await callApi<Envelope<{ nickname: string; isActive: boolean }[]>>('/api/bots', {
      token: trader.apiToken,
    });
    expect(bots.body.results.map((bot) => [bot.nickname, bot.isActive])).toEqual([['Clicked twice', true]]);
  });
});
