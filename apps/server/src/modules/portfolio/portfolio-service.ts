import { Decimal } from '@kairos/core';
import type { Preferences } from '@kairos/contract';
import type { ExchangeGateway } from '../../exchange/gateway';
import type { AuthedUser } from '../auth/auth-service';
import type { AccountsRepo, TradingAccountRow } from '../accounts/accounts-repo';
import type { createCurrencyConverter } from '../dashboard/dashboard-service';
import { type AccountEquity, accountEquity } from './equity';
import type { PortfolioPeriod, PortfolioRepo } from './portfolio-repo';

type AccountError = { accountId: string; nickname: string; sandbox: boolean; message: string };

export type PortfolioService = ReturnType<typeof createPortfolioService>;

export function createPortfolioService(deps: {
  repo: PortfolioRepo;
  accounts: Pick<AccountsRepo, 'listOwned'>;
  gatewayFor: (account: TradingAccountRow) => Promise<ExchangeGateway>;
  converterFor: ReturnType<typeof createCurrencyConverter>;
  preferences: (userId: string) => Promise<Preferences>;
}) {
  /** Each account of the user (or the one named) with its equity; an unreachable venue is an error, not a stop. */
  async function readAccounts(userId: string, accountId?: string) {
    const read: { account: TradingAccountRow; equity: AccountEquity }[] = [];
    const errors: AccountError[] = [];
    for (const { account } of await deps.accounts.listOwned(userId)) {
      if (accountId && account.id !== accountId) continue;
      try {
        read.push({ account, equity: await accountEquity(await deps.gatewayFor(account)) });
      } catch (e) {
        // One unreachable venue must not hide the rest of the portfolio.
        errors.push({
          accountId: account.id,
          nickname: account.nickname,
          sandbox: account.sandbox,
          message: e instanceof Error ? e.message : String(e),
        });
      }
    }
    const sum = (pick: (e: AccountEquity) => Decimal) =>
      read.reduce((s, r) => s.plus(pick(r.equity)), new Decimal(0));
    return { read, errors, total: sum((e) => e.total), available: sum((e) => e.available) };
  }

  return {
    /** "Total equity (est.)" and "Available" over the user's accounts, or one (the dashboard's figures). */
    async equity(userId: string, accountId?: string) {
      const { total, available, errors } = await readAccounts(userId, accountId);
      return { total, available, unread: errors.length };
    },

    /** Holdings across every account of the user: asset, amount, value, share. */
    async holdings(user: AuthedUser) {
      const { info, convert } = await deps.converterFor((await deps.preferences(user.id)).currency);
      const byAsset = new Map<
        string,
        {
          amount: Decimal;
          value: Decimal;
          accounts: { accountId: string; nickname: string; sandbox: boolean; amount: string }[];
        }
      >();
      const { read, errors, total, available } = await readAccounts(user.id);
      for (const { account, equity } of read) {
        for (const a of equity.assets) {
          const h = byAsset.get(a.asset) ?? { amount: new Decimal(0), value: new Decimal(0), accounts: [] };
          h.amount = h.amount.plus(a.amount);
          h.value = h.value.plus(a.value);
          h.accounts.push({
            accountId: account.id,
            nickname: account.nickname,
            sandbox: account.sandbox,
            amount: a.amount.toFixed(),
          });
          byAsset.set(a.asset, h);
        }
      }
      const holdings = [...byAsset.entries()]
        .map(([asset, h]) => ({
          asset,
          amount: h.amount.toFixed(),
          value: convert(h.value).toFixed(2),
          share: total.gt(0) ? h.value.div(total).times(100).toFixed(2) : '0.00',
          accounts: h.accounts,
        }))
        .sort((a, b) => Number(b.value) - Number(a.value));
      return {
        currency: info,
        totalValue: convert(total).toFixed(2),
        available: convert(available).toFixed(2),
        holdings,
        errors,
      };
    },

    /** Total equity over time from the balance snapshots, each account carried forward to every point. */
    async history(user: AuthedUser, period: PortfolioPeriod) {
      const { info, convert } = await deps.converterFor((await deps.preferences(user.id)).currency);
      const points = await deps.repo.equityHistory(user.id, period);
      return {
        period,
        currency: info,
        points: points.map((row) => ({
          time: new Date(row.time).toISOString(),
          value: convert(row.value).toFixed(2),
        })),
      };
    },
  };
}
