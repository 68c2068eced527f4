import { describe, expect, it } from 'vitest';
import { readPreferences } from './auth';
import { DEFAULT_PREFERENCES, mergePreferences } from './preferences';
import { tradeCreateBody } from './trades';
import {
  botAnswerSchema,
  botListAnswerSchema,
  botSchema,
  MAX_TAKE_PROFITS,
  strategyCreateBody,
  takeProfitSizeTotal,
  takeProfitSizesFit,
} from './trading';

const sizes = (...values: string[]) => values.map((sizePercent) => ({ sizePercent }));

describe('take-profit sizes', () => {
  it('add up exactly, as typed, and fit when they close at most the whole position', () => {
    expect(takeProfitSizeTotal(sizes('33,3', '33.3', '.4', '33'))).toBe('100');
    expect(takeProfitSizeTotal(sizes('50', 'abc', ''))).toBe('50');
    expect(takeProfitSizesFit(sizes('33.3', '33.3', '33.4'))).toBe(true);
    expect(takeProfitSizesFit(sizes('0.1', '0.2', '99.7'))).toBe(true);
    expect(takeProfitSizesFit(sizes('50', '50.0000001'))).toBe(false);
  });

  it('hold for strategies and manual trades alike', () => {
    const strategy = { nickname: 'S', tradeCurrency: 'BTC', timeFrame: '1h' };
    const trade = { accountId: crypto.randomUUID(), symbol: 'BTC/USDT', side: 'long', amount: '1' };
    for (const [schema, body] of [
      [strategyCreateBody, strategy],
      [tradeCreateBody, trade],
    ] as const) {
      const over = { percent: '1', sizePercent: '50.0000001' };
      expect(schema.safeParse({ ...body, takeProfits: [over, over] }).success).toBe(false);
      const third = { percent: '1', sizePercent: '33.3' };
      const rest = { percent: '2', sizePercent: '33.4' };
      expect(schema.safeParse({ ...body, takeProfits: [third, third, rest] }).success).toBe(true);
      const many = Array.from({ length: MAX_TAKE_PROFITS + 1 }, () => ({ percent: '1', sizePercent: '1' }));
      expect(schema.safeParse({ ...body, takeProfits: many }).success).toBe(false);
    }
  });
});

describe('a bot as a client reads it (spec §3)', () => {
  const bot = {
    id: 'b1',
    nickname: 'Trend',
    isActive: true,
    isTrading: false,
    tradeCurrency: 'BTC',
    stableCoin: 'USDT',
    portfolioPercent: '25',
    fixedAmount: null,
    leveragePercent: '100',
    marginMode: 'isolated',
    monthlyGoalPercent: null,
    goalAccumulatedProfitPercent: '0',
    position: 'long',
    strategy: { id: 's1', nickname: 'S', strategyKey: 'trend', tradeCurrency: 'BTC', timeFrame: '1h' },
    tradingAccount: { id: 'a1', nickname: 'Paper', exchange: 'paper', usdtBalance: '10000', sandbox: true },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('takes the camelCase the server sends as it is', () => {
    expect(botAnswerSchema.parse(bot)).toEqual(bot);
  });

  it('reads snake_case, a position in any case, no nickname as Bot, no margin mode as isolated, no sandbox as live', () => {
    const snake = {
      id: 'b1',
      nickname: '',
      is_active: true,
      is_trading: false,
      trade_currency: 'BTC',
      stable_coin: 'USDT',
      portfolio_percent: '25',
      fixed_amount: null,
      leverage_percent: '100',
      monthly_goal_percent: null,
      goal_accumulated_profit_percent: '0',
      position: 'LONG',
      strategy: { id: 's1', nickname: 'S', strategy_key: 'trend', trade_currency: 'BTC', time_frame: '1h' },
      trading_account: { id: 'a1', nickname: 'Paper', exchange: 'paper', usdt_balance: '10000' },
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(botAnswerSchema.parse(snake)).toEqual({
      ...bot,
      nickname: 'Bot',
      tradingAccount: { ...bot.tradingAccount, sandbox: false },
    });
    expect(botAnswerSchema.parse({ ...bot, position: 'sideways' }).position).toBe('out');
  });

  it('is lenient only as a client: the server’s own answer must say whether the account is a testnet', () => {
    const { sandbox: _, ...unmarked } = bot.tradingAccount;
    expect(botSchema.safeParse({ ...bot, tradingAccount: unmarked }).success).toBe(false);
    expect(botAnswerSchema.parse({ ...bot, tradingAccount: unmarked }).tradingAccount.sandbox).toBe(false);
  });

  it('reads the list as an array or an object with bots (spec §7)', () => {
    expect(botListAnswerSchema.parse([bot])).toEqual([bot]);
    expect(botListAnswerSchema.parse({ bots: [bot] })).toEqual([bot]);
    expect(botListAnswerSchema.safeParse({ bots: [{ id: 'b1' }] }).success).toBe(false);
  });
});

describe('preferences', () => {
  it('are dark by default (docs/decisions.md) and read over the defaults', () => {
    expect(DEFAULT_PREFERENCES.theme).toBe('dark');
    expect(readPreferences({ currency: 'EUR', notifications: { sms: true } })).toEqual({
      ...DEFAULT_PREFERENCES,
      currency: 'EUR',
      notifications: { ...DEFAULT_PREFERENCES.notifications, sms: true },
    });
    expect(readPreferences(null)).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences({ theme: 'pink' })).toEqual(DEFAULT_PREFERENCES);
  });

  it('merge a change, notifications one by one', () => {
    expect(
      mergePreferences(DEFAULT_PREFERENCES, { theme: 'light', notifications: { email: false } }),
    ).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'light',
      notifications: { ...DEFAULT_PREFERENCES.notifications, email: false },
    });
  });
});
