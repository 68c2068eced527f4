import { accumulatedProfitPercent, botAllocation, sizingRuleFromBot, toDecimal } from '@kairos/core';
import { apiError, type Bot, type CloseReason } from '@kairos/contract';
import { ConflictError, DomainRuleError, NotFoundError } from '../../lib/errors';
import type { AuthedUser } from '../auth/auth-service';
import type { QuotasService } from '../quotas/quotas-service';
import type { AccountsRepo } from '../accounts/accounts-repo';
import type { StrategiesRepo } from '../strategies/strategies-repo';
import { toTradeRow } from '../trades/trade-dto';
import type { TradeLedgerRepo } from '../trades/trade-ledger-repo';
import type { TradeMarks } from '../trades/trade-marks';
import type { BotsRepo, BotView } from './bots-repo';
import { capabilitiesFor } from '../../exchange/capabilities';

export type BotInput = {
  nickname?: string;
  isActive?: boolean;
  strategyId?: string;
  tradingAccountId?: string;
  tradeCurrency?: string;
  stableCoin?: string;
  portfolioPercent?: string | null;
  fixedAmount?: string | null;
  leveragePercent?: string;
  marginMode?: 'isolated' | 'cross';
  monthlyGoalPercent?: string | null;
};

/** Closing a bot's position at market is the engine's job; the service only asks for it. */
export type PositionCloser = (botId: string, reason: CloseReason) => Promise<void>;

function toDto(v: BotView): Bot {
  const allocation = botAllocation(
    sizingRuleFromBot({ fixedAmount: v.fixedAmount, portfolioPercent: v.portfolioPercent }),
    v.accountUsdtBalance,
  );
  return {
    id: v.id,
    nickname: v.nickname,
    isActive: v.isActive,
    isTrading: v.openTrades > 0,
    tradeCurrency: v.tradeCurrency,
    stableCoin: v.stableCoin,
    portfolioPercent: v.portfolioPercent,
    fixedAmount: v.fixedAmount,
    leveragePercent: v.leveragePercent,
    marginMode: v.marginMode,
    monthlyGoalPercent: v.monthlyGoalPercent,
    goalAccumulatedProfitPercent: accumulatedProfitPercent(v.monthProfit, allocation).toFixed(2),
    position: v.position,
    strategy: {
      id: v.strategyId,
      nickname: v.strategyNickname,
      strategyKey: v.strategyKey,
      tradeCurrency: v.strategyTradeCurrency,
      timeFrame: v.strategyTimeFrame,
    },
    tradingAccount: {
      id: v.tradingAccountId,
      nickname: v.accountNickname,
      exchange: v.accountExchange,
      usdtBalance: v.accountUsdtBalance,
      sandbox: v.accountSandbox,
    },
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) => new ConflictError(...apiError('BOT_NAME_TAKEN', { name: name.trim() }));

export type BotsService = ReturnType<typeof createBotsService>;

export function createBotsService(deps: {
  repo: BotsRepo;
  accounts: Pick<AccountsRepo, 'findOwned'>;
  strategies: Pick<StrategiesRepo, 'findVisible'>;
  closePosition: PositionCloser;
  /** The bot's open trade marked at the last price (issue 21); none: unmarked. */
  marks?: Pick<TradeMarks, 'marks'>;
  quotas: Pick<QuotasService, 'assertRoom'>;
  /** The bot's trades' figures as the ledger tells them (issue 19). */
  ledger: Pick<TradeLedgerRepo, 'withLedgerFigures'>;
}) {
  const { repo } = deps;

  async function view(user: AuthedUser, id: string): Promise<BotView> {
    const v = await repo.findView(user.id, id);
    if (!v) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'bot' }));
    return v;
  }

  /** The rules shared by create and update: owned account, visible strategy, leverage, allocation. */
  async function checkConfig(
    user: AuthedUser,
    input: Required<Pick<BotInput, 'tradingAccountId' | 'strategyId'>> & BotInput,
    botId?: string,
  ) {
    const account = await deps.accounts.findOwned(user.id, input.tradingAccountId);
    if (!account) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'account' }));
    const strategy = await deps.strategies.findVisible(user.id, input.strategyId);
    if (!strategy) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'strategy' }));
    if (strategy.status === 'retired' && !botId) throw new DomainRuleError(...apiError('STRATEGY_RETIRED'));
    if (
      input.leveragePercent &&
      toDecimal(input.leveragePercent).gt(100) &&
      account.marketType !== 'future'
    ) {
      throw new DomainRuleError(...apiError('LEVERAGE_NEEDS_FUTURES'));
    }
    if (input.portfolioPercent && toDecimal(input.portfolioPercent).gt(0)) {
      const taken = toDecimal(await repo.allocatedPercent(account.id, botId));
      const left = toDecimal(100).minus(taken);
      if (toDecimal(input.portfolioPercent).gt(left)) {
        throw new DomainRuleError(
          ...apiError('OVER_ALLOCATED', { taken: taken.toFixed(2), left: left.toFixed(2) }),
        );
      }
    }
    return { account, strategy };
  }

  /**
   * Where the margin mode is the whole account's (a Bybit unified account), every bot on the account trades in
   * one mode: a bot in another would switch it under the others' open positions.
   */
  async function assertMarginModeShared(
    account: { id: string; exchange: string; marketType: string },
    marginMode: 'isolated' | 'cross',
    botId?: string,
  ) {
    if (account.marketType !== 'future' || capabilitiesFor(account.exchange).marginMode !== 'account') return;
    const other = await repo.otherMarginMode(account.id, marginMode, botId);
    if (other)
      throw new ConflictError(
        ...apiError('MARGIN_MODE_SHARED', {
          exchange: account.exchange,
          bot: other.nickname,
          marginMode: other.marginMode,
        }),
      );
  }

  /**
   * A futures account holds one position per symbol (one-way mode, on the paper venue as on a real one):
   * two active bots on the same pair would close and reverse each other's position, so an account's pair
   * has one active bot. Checked whenever a bot becomes active or, active, changes its account or pair.
   */
  async function assertPairFree(
    account: { id: string; marketType: string },
    pair: { tradeCurrency: string; stableCoin: string },
    botId?: string,
  ) {
    if (account.marketType !== 'future') return;
    const other = await repo.activeOnPair(account.id, pair, botId);
    if (other !== undefined) {
      throw new ConflictError(
        ...apiError('FUTURES_PAIR_TAKEN', { bot: other, pair: `${pair.tradeCurrency}/${pair.stableCoin}` }),
      );
    }
  }

  return {
    async list(user: AuthedUser) {
      return (await repo.listViews(user.id)).map(toDto);
    },
    async get(user: AuthedUser, id: string) {
      return toDto(await view(user, id));
    },
    async create(user: AuthedUser, input: BotInput & { strategyId: string; tradingAccountId: string }) {
      await deps.quotas.assertRoom(user, 'bots');
      const { account, strategy } = await checkConfig(user, input);
      const pair = {
        tradeCurrency: input.tradeCurrency ?? strategy.tradeCurrency,
        stableCoin: input.stableCoin ?? strategy.stableCoin,
      };
      if (input.isActive) await assertPairFree(account, pair);
      await assertMarginModeShared(account, input.marginMode ?? 'isolated');
      const fixed = input.fixedAmount && toDecimal(input.fixedAmount).gt(0) ? input.fixedAmount : null;
      const nickname = input.nickname ?? 'Bot';
      const bot = await repo.insert({
        userId: user.id,
        tradingAccountId: account.id,
        strategyId: strategy.id,
        nickname,
        isActive: input.isActive ?? false,
        ...pair,
        // One sizing rule: a fixed amount wins over a portfolio share.
        fixedAmount: fixed,
        portfolioPercent: fixed ? null : (input.portfolioPercent ?? null),
        leveragePercent: input.leveragePercent ?? '100',
        marginMode: input.marginMode ?? 'isolated',
        monthlyGoalPercent: input.monthlyGoalPercent ?? null,
      });
      if (!bot) throw nameTaken(nickname);
      return toDto(await view(user, bot.id));
    },
    async update(user: AuthedUser, id: string, input: BotInput) {
      const current = await view(user, id);
      const merged = {
        ...input,
        tradingAccountId: input.tradingAccountId ?? current.tradingAccountId,
        strategyId: input.strategyId ?? current.strategyId,
        leveragePercent: input.leveragePercent ?? current.leveragePercent,
        portfolioPercent:
          input.portfolioPercent !== undefined ? input.portfolioPercent : current.portfolioPercent,
      };
      const moving =
        merged.tradingAccountId !== current.tradingAccountId || merged.strategyId !== current.strategyId;
      if (moving && current.openTrades > 0) {
        throw new ConflictError(...apiError('BOT_HAS_OPEN_TRADE', { variant: 'move' }));
      }
      const { account } = await checkConfig(user, merged, id);
      const pair = {
        tradeCurrency: input.tradeCurrency ?? current.tradeCurrency,
        stableCoin: input.stableCoin ?? current.stableCoin,
      };
      const activating = input.isActive === true && !current.isActive;
      const changingPair =
        pair.tradeCurrency !== current.tradeCurrency || pair.stableCoin !== current.stableCoin;
      if ((input.isActive ?? current.isActive) && (activating || moving || changingPair)) {
        await assertPairFree(account, pair, id);
      }
      if (moving || (input.marginMode && input.marginMode !== current.marginMode))
        await assertMarginModeShared(account, input.marginMode ?? current.marginMode, id);
      const sizing =
        input.fixedAmount !== undefined || input.portfolioPercent !== undefined
          ? input.fixedAmount && toDecimal(input.fixedAmount).gt(0)
            ? { fixedAmount: input.fixedAmount, portfolioPercent: null }
            : { fixedAmount: null, portfolioPercent: merged.portfolioPercent }
          : {};
      if (
        'portfolioPercent' in sizing &&
        !sizing.fixedAmount &&
        !(sizing.portfolioPercent && toDecimal(sizing.portfolioPercent).gt(0))
      ) {
        throw new DomainRuleError(...apiError('NO_SIZING'));
      }
      const values = {
        ...(input.nickname !== undefined ? { nickname: input.nickname } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        ...(input.tradeCurrency ? { tradeCurrency: input.tradeCurrency } : {}),
        ...(input.stableCoin ? { stableCoin: input.stableCoin } : {}),
        ...(input.leveragePercent ? { leveragePercent: input.leveragePercent } : {}),
        ...(input.marginMode ? { marginMode: input.marginMode } : {}),
        ...(input.monthlyGoalPercent !== undefined ? { monthlyGoalPercent: input.monthlyGoalPercent } : {}),
        ...(moving ? { tradingAccountId: merged.tradingAccountId, strategyId: merged.strategyId } : {}),
        ...sizing,
      };
      // A new name, or the bot moving to another account, must not take a name already there.
      const nickname = input.nickname ?? current.nickname;
      if (input.nickname !== undefined || merged.tradingAccountId !== current.tradingAccountId) {
        if (!(await repo.updateNamed(id, merged.tradingAccountId, nickname, values)))
          throw nameTaken(nickname);
      } else {
        await repo.update(id, values);
      }
      return toDto(await view(user, id));
    },
    async remove(user: AuthedUser, id: string) {
      const v = await view(user, id);
      if (v.openTrades > 0) {
        throw new ConflictError(...apiError('BOT_HAS_OPEN_TRADE'));
      }
      await repo.remove(id);
    },
    async start(user: AuthedUser, id: string) {
      const v = await view(user, id);
      if (!v.isActive) {
        const account = await deps.accounts.findOwned(user.id, v.tradingAccountId);
        if (account) await assertPairFree(account, v, id);
      }
      await repo.update(id, { isActive: true });
      return toDto(await view(user, id));
    },
    /** Deactivates; unless told otherwise, also exits the open position at market. */
    async stop(user: AuthedUser, id: string, closePosition: boolean) {
      const v = await view(user, id);
      await repo.update(id, { isActive: false });
      if (closePosition && v.openTrades > 0) await deps.closePosition(id, 'bot stopped');
      return toDto(await view(user, id));
    },
    async trades(user: AuthedUser, id: string, page: number, pageSize: number) {
      await view(user, id);
      const { rows, total } = await repo.trades(id, page, pageSize);
      const booked = await deps.ledger.withLedgerFigures(user.id, rows);
      const marks = deps.marks ? await deps.marks.marks(user.id, booked) : undefined;
      return { results: booked.map((t) => toTradeRow(t, marks?.get(t.id))), total, page, pageSize };
    },
  };
}
