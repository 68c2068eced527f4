import type { Bot } from '@kairos/contract';
import { field, flag, text } from '../../../lib/fields';

export type { Bot };
export type BotPosition = Bot['position'];

/** Spec §3: position is lowercased; long, short or out (default out). */
export function normalizePosition(value: unknown): BotPosition {
  const position = typeof value === 'string' ? value.toLowerCase() : 'out';
  return position === 'long' || position === 'short' ? position : 'out';
}

function nullableText(row: unknown, ...names: string[]): string | null {
  return text(row, ...names) ?? null;
}

/**
 * A bot as the screens use it, read from either spelling (spec §3: snake_case or camelCase),
 * with the spec's defaults (nickname 'Bot', position 'out').
 */
export function toBot(raw: unknown): Bot {
  const strategy = field(raw, 'strategy');
  const account = field(raw, 'tradingAccount', 'trading_account');
  return {
    id: text(raw, 'id') ?? '',
    nickname: text(raw, 'nickname') || 'Bot',
    isActive: flag(raw, 'isActive', 'is_active') ?? false,
    isTrading: flag(raw, 'isTrading', 'is_trading') ?? false,
    tradeCurrency: text(raw, 'tradeCurrency', 'trade_currency') ?? '',
    stableCoin: text(raw, 'stableCoin', 'stable_coin') ?? '',
    portfolioPercent: nullableText(raw, 'portfolioPercent', 'portfolio_percent'),
    fixedAmount: nullableText(raw, 'fixedAmount', 'fixed_amount'),
    leveragePercent: text(raw, 'leveragePercent', 'leverage_percent') ?? '100',
    monthlyGoalPercent: nullableText(raw, 'monthlyGoalPercent', 'monthly_goal_percent'),
    goalAccumulatedProfitPercent:
      text(raw, 'goalAccumulatedProfitPercent', 'goal_accumulated_profit_percent') ?? '0',
    position: normalizePosition(field(raw, 'position')),
    strategy: {
      id: text(strategy, 'id') ?? text(raw, 'strategyId', 'strategy_id') ?? '',
      nickname: text(strategy, 'nickname') ?? '',
      strategyKey: text(strategy, 'strategyKey', 'strategy_key') ?? '',
      tradeCurrency: text(strategy, 'tradeCurrency', 'trade_currency') ?? '',
      timeFrame: text(strategy, 'timeFrame', 'time_frame') ?? '',
    },
    tradingAccount: {
      id: text(account, 'id') ?? text(raw, 'tradingAccountId', 'trading_account_id') ?? '',
      nickname: text(account, 'nickname') ?? '',
      exchange: text(account, 'exchange') ?? '',
      usdtBalance: text(account, 'usdtBalance', 'usdt_balance') ?? '0',
    },
    createdAt: text(raw, 'createdAt', 'created_at') ?? '',
    updatedAt: text(raw, 'updatedAt', 'updated_at') ?? '',
  };
}
