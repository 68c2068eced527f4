import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createBot, createPaperAccount, postStrategy } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

let t: TestApp;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerUser(t.app);
  bob = await registerUser(t.app);
});
afterAll(() => t.close());

describe('bots and their accounts', () => {
  it('toggles a bot without touching its other settings, and counts bots per account', async () => {
    const strategy = (
      await postStrategy(t.app, alice, { nickname: 'Toggle', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).json().results;
    const account = await createPaperAccount(t.app, alice, { nickname: 'Toggle account' });
    const bot = await createBot(t.app, alice, {
      nickname: 'Keeper',
      strategy_id: strategy.id,
      trading_account_id: account.id,
      portfolio_percent: 10,
      monthly_goal_percent: 5,
    });
    const on = await t.app.inject({
      method: 'PUT',
      url: `/api/bots/${bot.id}`,
      headers: bearer(alice.apiToken),
      payload: { is_active: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().results).toMatchObject({
      nickname: 'Keeper',
      isActive: true,
      leveragePercent: '100',
      monthlyGoalPercent: '5',
    });
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/bots/${bot.id}`,
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Renamed' },
    });
    expect(renamed.json().results).toMatchObject({ nickname: 'Renamed', isActive: true });
    const accounts = (
      await t.app.inject({ method: 'GET', url: '/api/trading-accounts', headers: bearer(alice.apiToken) })
    ).json().results;
    expect(accounts.find((a: { id: string }) => a.id === account.id).botCount).toBe(1);
  });

  it('keeps one active bot per pair on a futures account, and any number on a spot account', async () => {
    const strategy = (
      await postStrategy(t.app, bob, { nickname: 'One position', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).json().results;
    const futures = await createPaperAccount(t.app, bob, { nickname: 'Bob futures', marketType: 'future' });
    const spot = await createPaperAccount(t.app, bob, { nickname: 'Bob spot' });
    const botOn = (account: { id: string }, nickname: string, extra: Record<string, unknown> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bots',
        headers: bearer(bob.apiToken),
        payload: {
          nickname,
          strategyId: strategy.id,
          tradingAccountId: account.id,
          fixedAmount: 20,
          ...extra,
        },
      });
    const call = (method: 'POST' | 'PUT', url: string, payload: object = {}) =>
      t.app.inject({ method, url, headers: bearer(bob.apiToken), payload });
    const taken = {
      success: false,
      error: 'FUTURES_PAIR_TAKEN',
      message:
        'The bot "First" already trades BTC/USDT on this futures account, which holds one position per symbol: stop it first or use another account',
      params: { bot: 'First', pair: 'BTC/USDT' },
    };

    expect((await botOn(futures, 'First', { isActive: true })).statusCode).toBe(201);
    const second = await botOn(futures, 'Second', { isActive: true });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual(taken);

    // Saved paused it is accepted, but it cannot be switched on, by either door.
    const paused = (await botOn(futures, 'Second')).json().results;
    expect((await call('POST', `/bots/${paused.id}/start`)).json()).toEqual(taken);
    expect((await call('PUT', `/api/bots/${paused.id}`, { is_active: true })).json()).toEqual(taken);
    // Another pair on the same account is free; an active bot moved onto the taken pair is not.
    const eth = await botOn(futures, 'Ether', { isActive: true, tradeCurrency: 'ETH' });
    expect(eth.statusCode).toBe(201);
    expect(
      (await call('PUT', `/api/bots/${eth.json().results.id}`, { tradeCurrency: 'BTC' })).statusCode,
    ).toBe(409);

    const bots = (
      await t.app.inject({ method: 'GET', url: '/api/bots', headers: bearer(bob.apiToken) })
    ).json().results;
    const byName = (name: string) => bots.find((b: { nickname: string }) => b.nickname === name);
    expect(byName('Second').isActive).toBe(false);
    expect(byName('Ether').tradeCurrency).toBe('ETH');

    // Paused but still holding its position, the first keeps the pair; once out, the second may start.
    const first = byName('First');
    expect((await call('POST', `/bots/${first.id}/stop`, { closePosition: false })).statusCode).toBe(200);
    await t.db.pool.query(`UPDATE bots SET position = 'long' WHERE id = $1`, [first.id]);
    expect((await call('POST', `/bots/${paused.id}/start`)).json()).toEqual(taken);
    await t.db.pool.query(`UPDATE bots SET position = 'out' WHERE id = $1`, [first.id]);
    const started = await call('POST', `/bots/${paused.id}/start`);
    expect(started.statusCode).toBe(200);
    expect(started.json().results.isActive).toBe(true);

    // A spot account has no position to share: two active bots on one pair are fine.
    expect((await botOn(spot, 'Spot one', { isActive: true })).statusCode).toBe(201);
    expect((await botOn(spot, 'Spot two', { isActive: true })).statusCode).toBe(201);
  });

  it('refuses a second bot of the same name on one account (trimmed, any case), on create and on rename', async () => {
    const strategy = (
      await postStrategy(t.app, alice, { nickname: 'Names', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).json().results;
    const account = await createPaperAccount(t.app, alice, { nickname: 'Names account' });
    const other = await createPaperAccount(t.app, alice, { nickname: 'Other names account' });
    const post = (nickname: string, on = account) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bots',
        headers: bearer(alice.apiToken),
        payload: { nickname, strategyId: strategy.id, tradingAccountId: on.id, fixedAmount: 20 },
      });
    const put = (id: string, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/bots/${id}`, headers: bearer(alice.apiToken), payload });
    const taken = (name: string) => ({
      success: false,
      error: 'BOT_NAME_TAKEN',
      message: `A bot named "${name}" already exists on this account`,
      params: { name },
    });

    const runner = await post('Runner');
    expect(runner.statusCode).toBe(201);
    for (const name of ['Runner', 'runner', '  RUNNER  ']) {
      const again = await post(name);
      expect(again.statusCode, name).toBe(409);
      expect(again.json()).toEqual(taken(name.trim()));
    }
    // Two at once: one of them.
    const both = await Promise.all([post('Twin'), post('twin')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    // Another account is another namespace.
    const elsewhere = await post('Runner', other);
    expect(elsewhere.statusCode).toBe(201);

    // Renaming onto a name taken is refused; a bot keeps its own name in another case.
    const walker = (await post('Walker')).json().results;
    expect((await put(walker.id, { nickname: 'RUNNER' })).json()).toEqual(taken('RUNNER'));
    const recased = await put(runner.json().results.id, { nickname: 'RUNNER' });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().results.nickname).toBe('RUNNER');
    // Moving onto an account where its name is taken is refused too.
    const moved = await put(elsewhere.json().results.id, { tradingAccountId: account.id });
    expect(moved.json()).toEqual(taken('Runner'));
    const bots = (
      await t.app.inject({ method: 'GET', url: '/api/bots', headers: bearer(alice.apiToken) })
    ).json().results as { nickname: string; tradingAccount: { id: string } }[];
    expect(
      bots
        .filter((b) => b.tradingAccount.id === account.id)
        .map((b) => b.nickname)
        .sort(),
    ).toEqual(['RUNNER', 'Walker', expect.stringMatching(/^twin$/i)].sort());
  });

  it('refuses a paper starting balance out of range, and connects nothing', async () => {
    const list = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/trading-accounts', headers: bearer(bob.apiToken) })
      ).json().results.length;
    const before = await list();
    for (const startingBalance of [1e13, '1' + '0'.repeat(30), 0, '-5']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/trading-accounts',
        headers: bearer(bob.apiToken),
        payload: { nickname: 'Too rich', exchange: 'paper', startingBalance },
      });
      expect(res.statusCode, String(startingBalance)).toBe(400);
      expect(res.json().message).toBe('Starting balance must be between 0 and 1,000,000,000,000');
    }
    expect(await list()).toBe(before);
  });
});
