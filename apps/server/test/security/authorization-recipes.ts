import { DEFAULT_USER_QUOTAS } from '@kairos/contract';
import type { Session } from '../support/users';
import { totpCode } from '../support/users';
import { callApi, type World } from './world';

/**
 * How the authorization matrix calls each operation of the OpenAPI document. A route the matrix does
 * not know fails the matrix: whoever adds one teaches it here (what it needs, who may call it).
 */

/**
 * - `owned`: the call names the owner's resources (path, query or body ids); any other user, admins
 *   included, gets 404 (DESIGN §2: never 403, never the data).
 * - `self`: the signed-in user's own data (lists, profile, creating something new); another user gets
 *   their own, which must hold nothing of the owner's.
 * - `admin`: `/admin/*`; users get 403, the admin `expect`.
 */
export type Access = 'owned' | 'self' | 'admin';

export type PreparedCall = {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The owner for this call when it is not `world.owner` (e.g. a user of their own for 2FA). */
  owner?: Session;
};

export type Recipe = {
  access: Access;
  /** Arranges what the call needs through the API and returns the owner's call. */
  prepare(w: World): Promise<PreparedCall> | PreparedCall;
  /** Status for the owner (for `admin` routes: for the admin). */
  expect: number;
  /** Status for another signed-in user when not the default of `access`, with the reason. */
  other?: { status: number; why: string };
  /** The call ends the session it is made with: every role makes it with a throwaway session. */
  endsSession?: true;
  /** Server-Sent Events: status and headers are read, then the stream is dropped. */
  stream?: true;
};

/** Public by design, tested elsewhere: auth entry points (test/auth), webhooks (strategy secret). */
export const PUBLIC_OPERATIONS = new Set([
  'GET /healthz',
  'POST /auth/register',
  'POST /auth/login',
  'POST /auth/refresh',
  'POST /auth/forgot-pass',
  'POST /webhooks/tradingview',
  'POST /webhooks/{strategyKey}',
]);

const lastMonth = () => {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
};

/** A user of their own with 2FA switched on (verify burns a code; disable needs the next step's). */
async function userWithTwoFa(w: World) {
  const u = await w.fresh.user();
  const enable = await callApi(w.t, u, 'POST', '/auth/enable-2fa', { email: u.email, password: u.password });
  const secret = enable.json().results.secret as string;
  const verify = await callApi(w.t, u, 'POST', '/auth/verify-2fa', {
    email: u.email,
    code: totpCode(secret),
  });
  if (verify.status !== 200) throw new Error(`verify-2fa: ${verify.body}`);
  return { user: { ...u, apiToken: verify.json().results.apiToken as string }, secret, password: u.password };
}

const emailMismatch = {
  status: 403,
  why: 'the body names the owner by email; refused before any lookup, the same for every email',
};

export const recipes: Record<string, Recipe> = {
  // ── auth (signed-in calls) ────────────────────────────────────────────────────────────────────
  'POST /auth/logout': { access: 'self', expect: 200, endsSession: true, prepare: () => ({}) },
  'POST /auth/enable-2fa': {
    access: 'self',
    expect: 200,
    other: emailMismatch,
    prepare: async (w) => {
      const u = await w.fresh.user();
      return { owner: u, body: { email: u.email, password: u.password } };
    },
  },
  'POST /auth/verify-2fa': {
    access: 'self',
    expect: 200,
    other: emailMismatch,
    prepare: async (w) => {
      const u = await w.fresh.user();
      const enable = await callApi(w.t, u, 'POST', '/auth/enable-2fa', {
        email: u.email,
        password: u.password,
      });
      return { owner: u, body: { email: u.email, code: totpCode(enable.json().results.secret) } };
    },
  },
  'POST /auth/disable-2fa': {
    access: 'self',
    expect: 200,
    other: emailMismatch,
    prepare: async (w) => {
      const { user, secret, password } = await userWithTwoFa(w);
      return {
        owner: user,
        body: { email: user.email, code: totpCode(secret, Date.now() + 30_000), password },
      };
    },
  },
  'GET /auth/sessions': { access: 'self', expect: 200, prepare: () => ({}) },
  'DELETE /auth/sessions/{id}': {
    access: 'owned',
    expect: 200,
    // Another sign-in of the owner's (the call revokes it), named by its id as Settings lists it.
    prepare: async (w) => {
      const device = await w.fresh.session(w.owner);
      const list = await callApi(w.t, device, 'GET', '/auth/sessions');
      const mine = (list.json().results as Array<{ id: string; current: boolean }>).find((s) => s.current);
      if (!mine) throw new Error(`sessions: ${list.body}`);
      return { path: { id: mine.id } };
    },
  },
  'POST /auth/change-pass': {
    access: 'self',
    expect: 200,
    other: emailMismatch,
    prepare: async (w) => {
      const u = await w.fresh.user();
      const password = 'a-brand-new-passphrase-42';
      return {
        owner: u,
        body: { email: u.email, password, confirm_password: password, currentPassword: u.password },
      };
    },
  },

  // ── user ──────────────────────────────────────────────────────────────────────────────────────
  'GET /user/profile': { access: 'self', expect: 200, prepare: () => ({}) },
  'PUT /user/profile': { access: 'self', expect: 200, prepare: () => ({ body: { displayName: 'Matrix' } }) },
  'GET /user/settings': { access: 'self', expect: 200, prepare: () => ({}) },
  'PUT /user/settings': { access: 'self', expect: 200, prepare: () => ({ body: { theme: 'light' } }) },

  // ── strategies ────────────────────────────────────────────────────────────────────────────────
  'GET /api/strategies': { access: 'self', expect: 200, prepare: () => ({}) },
  'POST /api/strategies': {
    access: 'self',
    expect: 201,
    prepare: () => ({ body: { nickname: 'Another', tradeCurrency: 'SOL', timeFrame: '15m' } }),
  },
  'GET /api/strategies/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.strategyId } }),
  },
  'PUT /api/strategies/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.strategyId }, body: { nickname: 'Renamed swing' } }),
  },
  'DELETE /api/strategies/{id}': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.strategy()).id } }),
  },

  // ── bots ──────────────────────────────────────────────────────────────────────────────────────
  'GET /api/bots': { access: 'self', expect: 200, prepare: () => ({}) },
  'POST /api/bots': {
    access: 'owned',
    expect: 201,
    prepare: (w) => ({
      body: {
        nickname: 'Second bot',
        strategyId: w.ownerData.strategyId,
        tradingAccountId: w.ownerData.accountId,
        portfolioPercent: 1,
      },
    }),
  },
  'GET /api/bots/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.botId } }),
  },
  'PUT /api/bots/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.botId }, body: { nickname: 'Renamed bot' } }),
  },
  'DELETE /api/bots/{id}': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.bot()).id } }),
  },
  'GET /api/bots/{id}/trades': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.botId }, query: { page: '1', pageSize: '10' } }),
  },
  'POST /bots/{id}/start': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.bot()).id } }),
  },
  'POST /bots/{id}/stop': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.bot()).id }, body: { closePosition: false } }),
  },

  // ── trading accounts ──────────────────────────────────────────────────────────────────────────
  'GET /api/trading-accounts': { access: 'self', expect: 200, prepare: () => ({}) },
  'POST /api/trading-accounts': {
    access: 'self',
    expect: 201,
    prepare: () => ({ body: { nickname: 'Paper 2', exchange: 'paper' } }),
  },
  'PUT /api/trading-accounts/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.accountId }, body: { nickname: 'Renamed paper' } }),
  },
  'DELETE /api/trading-accounts/{id}': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.account()).id } }),
  },
  'GET /api/trading-accounts/{id}/bots-distributions': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.accountId }, query: { exclude_bot_id: w.ownerData.botId } }),
  },

  // ── market ────────────────────────────────────────────────────────────────────────────────────
  'GET /market/exchanges': { access: 'self', expect: 200, prepare: () => ({}) },
  'GET /market/pairs': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ query: { accountId: w.ownerData.accountId } }),
  },
  'GET /market/{symbol}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { symbol: 'BTC-USDT' }, query: { accountId: w.ownerData.accountId } }),
  },
  'GET /market/{symbol}/orderbook': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { symbol: 'BTC-USDT' }, query: { accountId: w.ownerData.accountId } }),
  },
  'GET /market/{symbol}/candles': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({
      path: { symbol: 'BTC-USDT' },
      query: { accountId: w.ownerData.accountId, timeframe: '1h', limit: '10' },
    }),
  },

  // ── trades ────────────────────────────────────────────────────────────────────────────────────
  'GET /api/trades': {
    access: 'owned',
    expect: 200,
    other: {
      status: 200,
      why: "filters narrow a list scoped to the caller in the query: another user's ids match nothing",
    },
    prepare: (w) => ({ query: { bot_id: w.ownerData.botId, accountId: w.ownerData.accountId } }),
  },
  'GET /api/billing': { access: 'self', expect: 200, prepare: () => ({}) },
  'GET /api/orders': {
    access: 'owned',
    expect: 200,
    other: {
      status: 200,
      why: "the account filter narrows a list scoped to the caller: another user's account id matches nothing",
    },
    prepare: (w) => ({ query: { scope: 'all', accountId: w.ownerData.accountId } }),
  },
  'POST /api/trades': {
    access: 'owned',
    expect: 201,
    prepare: (w) => ({
      body: { accountId: w.ownerData.accountId, symbol: 'BTC/USDT', side: 'long', amount: '0.001' },
    }),
  },
  'GET /api/trades/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.tradeId } }),
  },
  'PUT /api/trades/{id}': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.tradeId }, body: { stopLossPercent: 4 } }),
  },
  'DELETE /api/trades/{id}': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.closedTrade()).id } }),
  },
  'POST /api/trades/{id}/complete': {
    access: 'owned',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.trade()).id } }),
  },
  'GET /api/trades/{id}/complete': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.tradeId } }),
  },
  'PUT /push-to-take-profit': {
    access: 'owned',
    expect: 200,
    other: {
      status: 403,
      why: "the spec's body carries the owner's userId, refused before the trade is looked up",
    },
    prepare: (w) => ({
      body: {
        tradeId: w.ownerData.tradeId,
        takeProfitRole: 'tp1',
        botId: w.ownerData.botId,
        userId: w.ownerData.userId,
        test: true,
      },
    }),
  },

  // ── dashboard, portfolio, live updates ────────────────────────────────────────────────────────
  'GET /api/dashboard': {
    access: 'owned',
    expect: 200,
    prepare: (w) => ({ query: { accountId: w.ownerData.accountId, botId: w.ownerData.botId } }),
  },
  'GET /portfolio': { access: 'self', expect: 200, prepare: () => ({}) },
  'GET /portfolio/history': { access: 'self', expect: 200, prepare: () => ({ query: { period: '7d' } }) },
  'GET /api/events': { access: 'self', expect: 200, stream: true, prepare: () => ({}) },
  'POST /api/events/ticket': { access: 'self', expect: 200, prepare: () => ({}) },

  // ── admin: alerts ─────────────────────────────────────────────────────────────────────────────
  'GET /admin/alerts/rejections': {
    access: 'admin',
    expect: 200,
    prepare: () => ({ query: { hours: '24' } }),
  },
  'GET /admin/alerts': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ query: { page: '1', pageSize: '5', strategyKey: w.ownerData.strategyKey } }),
  },
  'GET /admin/alerts/{id}': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.alertId } }),
  },
  'POST /admin/alerts/{id}/dead': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.queuedAlert()).id }, body: { reason: 'matrix' } }),
  },
  'POST /admin/alerts/{id}/resume': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => {
      const { id } = await w.fresh.queuedAlert();
      const dead = await callApi(w.t, w.admin, 'POST', `/admin/alerts/${id}/dead`, { reason: 'matrix' });
      if (dead.status !== 200) throw new Error(`dead: ${dead.body}`);
      return { path: { id } };
    },
  },

  // ── admin: trade control (on a strategy of the owner's with no open trade: nothing moves) ─────
  'GET /admin/strategies': { access: 'admin', expect: 200, prepare: () => ({}) },
  'GET /admin/strategies/{id}/trades/status': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.strategyId } }),
  },
  'POST /admin/strategies/{id}/trades/push-to-tp': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.strategy()).id }, body: { takeProfitRole: 'tp1' } }),
  },
  'POST /admin/strategies/{id}/trades/close-positions': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.strategy()).id } }),
  },
  'POST /admin/strategies/{id}/trades/cancel-orders': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.strategy()).id } }),
  },
  'GET /admin/strategies/{id}/trades/scope': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ path: { id: w.ownerData.strategyId }, query: { action: 'close-positions' } }),
  },
  'PUT /admin/strategies/{id}/status': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.strategy()).id }, body: { status: 'paused' } }),
  },
  'POST /admin/bots/{id}/close-position': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.bot()).id } }),
  },
  'POST /admin/bots/{id}/pause': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.bot()).id } }),
  },

  // ── admin: billing and audit ──────────────────────────────────────────────────────────────────
  'GET /admin/billing/users': { access: 'admin', expect: 200, prepare: () => ({ query: { take: '5' } }) },
  'GET /admin/billing/user': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ query: { userId: w.ownerData.userId } }),
  },
  'PUT /admin/billing/user': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ body: { userId: w.ownerData.userId, percent: 10 } }),
  },
  'GET /admin/billing/records': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ query: { userId: w.ownerData.userId } }),
  },
  'GET /admin/billing/records/{id}/events': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => {
      const { userId, year, month } = await w.fresh.payer();
      const records = await callApi(
        w.t,
        w.admin,
        'GET',
        `/admin/billing/records?userId=${userId}&year=${year}&month=${month}`,
      );
      return { path: { id: records.json().results[0].id as string } };
    },
  },
  'GET /admin/billing/invoices': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ query: { userId: w.ownerData.userId } }),
  },
  'POST /admin/billing/monthly/process': {
    access: 'admin',
    expect: 200,
    // A month long gone: processing it touches no month the other calls rely on.
    prepare: () => ({ body: { year: 2020, month: 1 } }),
  },
  'GET /admin/ledger/adjustments': {
    access: 'admin',
    expect: 200,
    prepare: (w) => ({ query: { userId: w.ownerData.userId } }),
  },
  'POST /admin/ledger/adjustments': {
    access: 'admin',
    expect: 201,
    // A user of their own: the correction moves no figure the other calls read.
    prepare: async (w) => {
      const u = await w.fresh.user();
      return { body: { userId: String(u.user.id), amount: '-1.5', currency: 'USDT', reason: 'matrix' } };
    },
  },
  'POST /admin/billing/invoice/create': {
    access: 'admin',
    expect: 201,
    prepare: async (w) => {
      const payer = await w.fresh.payer();
      return { body: { userId: payer.userId, ...lastMonth() } };
    },
  },
  'POST /admin/billing/invoices/{id}/pay': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.invoice()).id }, body: { reference: 'wire-1' } }),
  },
  'POST /admin/billing/invoices/{id}/void': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => ({ path: { id: (await w.fresh.invoice()).id }, body: { reason: 'duplicate' } }),
  },
  'GET /admin/audit': { access: 'admin', expect: 200, prepare: () => ({ query: { take: '5' } }) },
  'GET /admin/outbox': { access: 'admin', expect: 200, prepare: () => ({ query: { take: '5' } }) },
  // ── admin: settings (the defaults written back: the other calls keep their room) ────────────────
  'GET /admin/settings/quotas': { access: 'admin', expect: 200, prepare: () => ({}) },
  'PUT /admin/settings/quotas': {
    access: 'admin',
    expect: 200,
    prepare: () => ({ body: { ...DEFAULT_USER_QUOTAS } }),
  },
  // ── admin: invites (issue 20) ─────────────────────────────────────────────────────────────────
  'GET /admin/invites': { access: 'admin', expect: 200, prepare: () => ({ query: { take: '5' } }) },
  'POST /admin/invites': { access: 'admin', expect: 201, prepare: () => ({ body: { note: 'matrix' } }) },
  'DELETE /admin/invites/{id}': {
    access: 'admin',
    expect: 200,
    prepare: async (w) => {
      const made = await callApi(w.t, w.admin, 'POST', '/admin/invites', {});
      return { path: { id: made.json().results.id as string } };
    },
  },
};
