import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { bearer, GOOD_PASSWORD, registerUser, uniqueEmail, type Session } from '../support/users';

export type Reply = {
  status: number;
  body: string;
  headers: Record<string, unknown>;
  json: LightMyRequestResponse['json'];
};

/** One API call as `who` (undefined: anonymous), the way the web client sends it. */
export async function callApi(
  t: Pick<TestApp, 'app'>,
  who: Session | undefined,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await t.app.inject({
    method,
    url,
    headers: { accept: 'application/json', ...(who ? bearer(who.apiToken) : {}), ...headers },
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
  return {
    status: res.statusCode,
    body: res.body,
    headers: res.headers,
    json: () => res.json(),
  };
}

async function ok(reply: Promise<Reply>, status: number, what: string) {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.body}`);
  return r.json().results;
}

export type TradingData = {
  accountId: string;
  strategyId: string;
  strategyKey: string;
  webhookSecret: string;
  botId: string;
};

/** What a trader has, arranged through the API: a paper account, a strategy with a ladder, an active bot. */
async function tradingData(t: TestApp, s: Session, tag: string): Promise<TradingData> {
  const account = await createPaperAccount(t.app, s, { nickname: `${tag} paper` });
  const strategy = await ok(
    callApi(t, s, 'POST', '/api/strategies', {
      nickname: `${tag} BTC swing`,
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      takeProfits: [
        { percent: 1, sizePercent: 50 },
        { percent: 2, sizePercent: 50 },
      ],
      stopLossPercent: 5,
    }),
    201,
    'strategy',
  );
  const bot = await createBot(t.app, s, {
    nickname: `${tag} bot`,
    strategyId: strategy.id,
    tradingAccountId: account.id,
    fixedAmount: 100,
    isActive: true,
  });
  return {
    accountId: account.id,
    strategyId: strategy.id,
    strategyKey: strategy.strategyKey,
    webhookSecret: strategy.webhookSecret,
    botId: bot.id,
  };
}

export type World = {
  t: TestApp;
  admin: Session;
  /** Owns every resource the matrix aims at. */
  owner: Session;
  /** Signed in, with data of their own, trying the owner's ids. */
  other: Session;
  ownerData: TradingData & { userId: string; email: string; tradeId: string; alertId: string };
  otherData: TradingData;
  /** Everything that names the owner: none of it may reach another user. */
  ownerSecrets(): string[];
  /** Remembers an owner resource made for one call, so leak checks look for it too. */
  remember(...ids: string[]): void;
  /** Throwaway resources for calls that consume them (delete, stop, complete…). */
  fresh: {
    strategy(): Promise<{ id: string }>;
    bot(): Promise<{ id: string }>;
    account(): Promise<{ id: string }>;
    /** A manual paper trade, open with its ladder resting. */
    trade(): Promise<{ id: string }>;
    /** A manual paper trade already closed at market. */
    closedTrade(): Promise<{ id: string }>;
    /** An alert left queued (no worker runs) for the admin alert actions. */
    queuedAlert(): Promise<{ id: string }>;
    /** A user with a plan and last month processed: a fee is due, not invoiced yet. */
    payer(): Promise<{ userId: string; year: number; month: number }>;
    /** A payer's open invoice for last month. */
    invoice(): Promise<{ id: string; userId: string }>;
    /** Another session of the same person, for calls that end the session they are made with. */
    session(of: Session): Promise<Session>;
    /** A user of their own (for 2FA and password changes, which change how they sign in). */
    user(): Promise<Session & { password: string }>;
  };
};

export const WORLD_ADMIN_EMAIL = 'matrix-admin@example.com';

export async function buildWorld(env: Record<string, string> = {}, opts: TestAppOptions = {}) {
  const t = await createTestApp({ KAIROS_ADMIN_EMAIL: WORLD_ADMIN_EMAIL, ...env }, opts);
  const admin = await registerUser(t.app, WORLD_ADMIN_EMAIL);
  const owner = await registerUser(t.app, uniqueEmail('owner'));
  const other = await registerUser(t.app, uniqueEmail('other'));
  await ok(
    callApi(t, admin, 'POST', '/api/strategies', {
      nickname: 'House strategy',
      tradeCurrency: 'ETH',
      timeFrame: '4h',
    }),
    201,
    'admin strategy',
  );

  const mine = await tradingData(t, owner, 'Owner');
  const theirs = await tradingData(t, other, 'Other');

  // A trade the way it happens in production: a webhook, processed by the alert worker.
  const worker = startTestAlertWorker(t, 'matrix-worker');
  let alertId: string;
  try {
    ({ alertId } = await sendSignal(t.app, mine, { action: 'long', id: 'matrix-1' }));
    const status = await waitForAlert(t, alertId);
    if (status !== 'succeeded') throw new Error(`world alert ${status}`);
  } finally {
    await worker.stop();
  }
  const trades = await ok(callApi(t, owner, 'GET', `/api/trades?bot_id=${mine.botId}`), 200, 'trades');
  if (trades.length !== 1) throw new Error(`expected the bot's trade, got ${JSON.stringify(trades)}`);

  const extra = new Set<string>();
  const ownerData = {
    ...mine,
    userId: String(owner.user.id),
    email: owner.email,
    tradeId: trades[0].id as string,
    alertId,
  };

  const manualTrade = async () => {
    const d = await ok(
      callApi(t, owner, 'POST', '/api/trades', {
        accountId: mine.accountId,
        symbol: 'BTC/USDT',
        side: 'long',
        amount: '0.001',
        takeProfits: [{ percent: 3, sizePercent: 100 }],
      }),
      201,
      'manual trade',
    );
    extra.add(d.trade.id);
    return { id: d.trade.id as string };
  };

  /** A user with a plan and a profitable trade closed last month: a fee is due. */
  const payer = async () => {
    // The clock cannot be moved through the API: last month's closed trade is written directly.
    const who = await registerUser(t.app, uniqueEmail('payer'));
    const account = await createPaperAccount(t.app, who);
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    await t.db.pool.query(
      `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity, realised_pnl, opened_at, closed_at)
       VALUES ($1, $2, 'BTC/USDT', 'long', 'closed', '0.01', '250', $3, $3)`,
      [who.user.id, account.id, lastMonth],
    );
    await ok(
      callApi(t, admin, 'PUT', '/admin/billing/user', { userId: who.user.id, percent: 20 }),
      200,
      'plan',
    );
    const period = { year: lastMonth.getUTCFullYear(), month: lastMonth.getUTCMonth() + 1 };
    await ok(callApi(t, admin, 'POST', '/admin/billing/monthly/process', period), 200, 'monthly process');
    return { userId: String(who.user.id), ...period };
  };

  const world: World = {
    t,
    admin,
    owner,
    other,
    ownerData,
    otherData: theirs,
    ownerSecrets: () => [
      ownerData.userId,
      ownerData.email,
      ownerData.accountId,
      ownerData.strategyId,
      ownerData.strategyKey,
      ownerData.webhookSecret,
      ownerData.botId,
      ownerData.tradeId,
      ownerData.alertId,
      owner.apiToken,
      owner.refreshToken,
      ...extra,
    ],
    remember: (...ids) => ids.forEach((id) => extra.add(id)),
    fresh: {
      async strategy() {
        const s = await ok(
          callApi(t, owner, 'POST', '/api/strategies', {
            nickname: 'Spare',
            tradeCurrency: 'ETH',
            timeFrame: '1d',
          }),
          201,
          'strategy',
        );
        extra.add(s.id);
        extra.add(s.webhookSecret);
        return { id: s.id as string };
      },
      async bot() {
        const b = await createBot(t.app, owner, {
          // Names are unique per account, and a recipe may ask for several.
          nickname: `Spare bot ${extra.size}`,
          strategyId: mine.strategyId,
          tradingAccountId: mine.accountId,
          portfolioPercent: 1,
        });
        extra.add(b.id);
        return { id: b.id };
      },
      async account() {
        const a = await createPaperAccount(t.app, owner, { nickname: 'Spare paper' });
        extra.add(a.id);
        return { id: a.id };
      },
      trade: manualTrade,
      async closedTrade() {
        const { id } = await manualTrade();
        await ok(callApi(t, owner, 'POST', `/api/trades/${id}/complete`), 200, 'complete');
        return { id };
      },
      async queuedAlert() {
        const { alertId: id } = await sendSignal(t.app, mine, { action: 'exit', id: `queued-${extra.size}` });
        extra.add(id);
        return { id };
      },
      payer,
      async invoice() {
        const { userId, year, month } = await payer();
        const created = await callApi(t, admin, 'POST', '/admin/billing/invoice/create', {
          userId,
          year,
          month,
        });
        if (created.status >= 300) throw new Error(`invoice: ${created.status} ${created.body}`);
        return { id: created.json().results.invoice.id as string, userId };
      },
      async session(of) {
        const s = await ok(
          callApi(t, undefined, 'POST', '/auth/login', { email: of.email, password: GOOD_PASSWORD }),
          200,
          'login',
        );
        return { email: of.email, apiToken: s.apiToken, refreshToken: s.refreshToken, user: s.user };
      },
      async user() {
        const s = await registerUser(t.app, uniqueEmail('fresh'), GOOD_PASSWORD);
        extra.add(String(s.user.id)).add(s.email);
        return { ...s, password: GOOD_PASSWORD };
      },
    },
  };
  return world;
}
