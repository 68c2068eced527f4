import { type Bot, MAX_LEVERAGE_PERCENT, decimalText, fitsLedger } from '@kairos/contract';
import type { BotsDistribution } from '../api/get-bots-distribution';

/** Spec §2: the seven steps of the bot creation wizard, in order. */
export const WIZARD_STEPS = ['name', 'account', 'strategy', 'config', 'volume', 'release', 'review'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** What the wizard needs to know about an account (a TradingAccount fits). */
export interface AccountOption {
  id: string;
  nickname: string;
  exchange: string;
  marketType: 'spot' | 'future';
  usdtBalance: string;
  botCount: number;
  status: 'active' | 'error';
}

/** What the wizard needs to know about a strategy (a Strategy fits). */
export interface StrategyOption {
  id: string;
  nickname: string;
  strategyKey: string;
  tradeCurrency: string;
  stableCoin: string;
  timeFrame: string;
  status: 'active' | 'paused' | 'retired';
  isPublic: boolean;
  isOwner: boolean;
}

export type SizingMode = 'portfolio' | 'fixed';

export interface BotFormValues {
  nickname: string;
  tradingAccountId: string;
  strategyId: string;
  tradeCurrency: string;
  stableCoin: string;
  /** Optional; empty means no monthly goal. */
  monthlyGoalPercent: string;
  /** As a multiplier typed by the user: "1" is 1× (leveragePercent 100). */
  leverage: string;
  sizing: SizingMode;
  portfolioPercent: string;
  fixedAmount: string;
  /** Wizard step "release": go live now, or save paused. */
  release: 'live' | 'paused';
}

export const emptyBotForm: BotFormValues = {
  nickname: '',
  tradingAccountId: '',
  strategyId: '',
  tradeCurrency: '',
  stableCoin: '',
  monthlyGoalPercent: '',
  leverage: '1',
  sizing: 'portfolio',
  portfolioPercent: '',
  fixedAmount: '',
  release: 'live',
};

/** The highest leverage as a multiple (125×): the contract's limit is in percent. */
export const MAX_LEVERAGE = MAX_LEVERAGE_PERCENT / 100;

/**
 * A non-negative decimal as a person types it ("12,5", ".5"), written as the API takes it ("12.5",
 * "0.5"); undefined when it is not one (or does not fit the ledger).
 */
export function typedDecimal(value: string): string | undefined {
  const text = decimalText(value);
  return fitsLedger(text) && !text.startsWith('-') ? text : undefined;
}

/** "12,5" → 12.5, for figures on screen; NaN when it is not a plain non-negative decimal. */
export function parseDecimal(value: string): number {
  const text = typedDecimal(value);
  return text === undefined ? Number.NaN : Number(text);
}

export interface Allocation {
  balance: number;
  /** Share of the account claimed by other bots with a portfolio percentage (the server's figure). */
  claimedPercent: number;
  /** USDT claimed by other bots with a fixed amount. */
  claimedAmount: number;
  /** What is left for this bot, as a share and in USDT; never below zero. */
  availablePercent: number;
  availableAmount: number;
}

/**
 * What the other bots on the account already claim. A fixed amount claims that much of the
 * balance too, so it is counted against what is left, whichever way this bot is sized.
 */
export function allocationOf(
  distribution: Pick<BotsDistribution, 'usdtBalance' | 'allocatedPercent' | 'bots'>,
): Allocation {
  const balance = Math.max(0, Number(distribution.usdtBalance) || 0);
  const claimedPercent = Math.max(0, Number(distribution.allocatedPercent) || 0);
  const claimedAmount = distribution.bots.reduce((sum, bot) => sum + (Number(bot.fixedAmount) || 0), 0);
  const fixedShare = balance > 0 ? (claimedAmount / balance) * 100 : 0;
  const availablePercent = Math.min(100, Math.max(0, 100 - claimedPercent - fixedShare));
  return {
    balance,
    claimedPercent,
    claimedAmount,
    availablePercent,
    availableAmount: Math.max(0, (balance * availablePercent) / 100),
  };
}

/** "2" (×) → "200" (leveragePercent, spec §3: 100 = 1×), spot accounts always 100. */
export function toLeveragePercent(
  leverage: string,
  marketType: AccountOption['marketType'] | undefined,
): string {
  if (marketType !== 'future') return '100';
  const multiplier = parseDecimal(leverage);
  return Number.isFinite(multiplier) ? String(Math.round(multiplier * 10_000) / 100) : '100';
}

/** POST /api/bots in the spec's snake_case: one sizing rule, the other left out. */
export function toCreateBotBody(values: BotFormValues, marketType: AccountOption['marketType'] | undefined) {
  return {
    nickname: values.nickname.trim(),
    is_active: values.release === 'live',
    strategy_id: values.strategyId,
    trading_account_id: values.tradingAccountId,
    trade_currency: values.tradeCurrency.trim().toUpperCase(),
    stable_coin: values.stableCoin.trim().toUpperCase(),
    leverage_percent: toLeveragePercent(values.leverage, marketType),
    monthly_goal_percent: values.monthlyGoalPercent.trim() ? decimalText(values.monthlyGoalPercent) : null,
    ...(values.sizing === 'fixed'
      ? { fixed_amount: decimalText(values.fixedAmount) }
      : { portfolio_percent: decimalText(values.portfolioPercent) }),
  };
}

export type CreateBotBody = ReturnType<typeof toCreateBotBody>;

/**
 * PUT /api/bots/:id from the edit form: the same fields as creation minus account and strategy.
 * `is_active` goes along unchanged (the form starts from the bot), so saving never pauses a bot.
 */
export function toUpdateBotBody(values: BotFormValues, marketType: AccountOption['marketType'] | undefined) {
  const {
    strategy_id: _strategy,
    trading_account_id: _account,
    ...body
  } = toCreateBotBody(values, marketType);
  return values.sizing === 'fixed' ? { ...body, portfolio_percent: null } : { ...body, fixed_amount: null };
}

export type UpdateBotBody = ReturnType<typeof toUpdateBotBody>;

/** "5.000000000000000000" (a database numeric) → "5"; "" for none. */
export function trimDecimal(value: string | null | undefined): string {
  if (!value) return '';
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

/** The edit form starts from the bot as it is. */
export function botToForm(bot: Bot): BotFormValues {
  const fixed = bot.fixedAmount && Number(bot.fixedAmount) > 0;
  return {
    nickname: bot.nickname,
    tradingAccountId: bot.tradingAccount.id,
    strategyId: bot.strategy.id,
    tradeCurrency: bot.tradeCurrency,
    stableCoin: bot.stableCoin,
    monthlyGoalPercent: trimDecimal(bot.monthlyGoalPercent),
    leverage: String(Number(bot.leveragePercent || '100') / 100),
    sizing: fixed ? 'fixed' : 'portfolio',
    portfolioPercent: fixed ? '' : trimDecimal(bot.portfolioPercent),
    fixedAmount: fixed ? trimDecimal(bot.fixedAmount) : '',
    release: bot.isActive ? 'live' : 'paused',
  };
}

/** Progress towards the monthly goal, 0..1, or null when the bot has no goal. */
export function goalProgress(
  bot: Pick<Bot, 'monthlyGoalPercent' | 'goalAccumulatedProfitPercent'>,
): number | null {
  const goal = Number(bot.monthlyGoalPercent);
  if (!bot.monthlyGoalPercent || !(goal > 0)) return null;
  const reached = Number(bot.goalAccumulatedProfitPercent) || 0;
  return Math.min(1, Math.max(0, reached / goal));
}
