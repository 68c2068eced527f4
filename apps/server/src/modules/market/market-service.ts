import { apiError } from '@kairos/contract';
import type { ExchangeGateway, Timeframe } from '../../exchange/gateway';
import { NotFoundError } from '../../lib/errors';
import type { AuthedUser } from '../auth/auth-service';
import type { AccountsRepo, TradingAccountRow } from '../accounts/accounts-repo';

export type MarketService = ReturnType<typeof createMarketService>;

/** Market data from the paper venue by default, or from a chosen account's venue. */
export function createMarketService(deps: {
  accounts: Pick<AccountsRepo, 'findOwned'>;
  marketData: ExchangeGateway;
  gatewayFor: (account: TradingAccountRow) => Promise<ExchangeGateway>;
}) {
  async function gateway(user: AuthedUser, accountId?: string): Promise<ExchangeGateway> {
    if (!accountId) return deps.marketData;
    const account = await deps.accounts.findOwned(user.id, accountId);
    if (!account) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'account' }));
    return deps.gatewayFor(account);
  }
  async function known(g: ExchangeGateway, symbol: string) {
    const markets = await g.listMarkets();
    if (!markets.some((m) => m.symbol === symbol))
      throw new NotFoundError(
        ...apiError('NOT_FOUND', { variant: 'market', symbol: symbol.replace('/', '-') }),
      );
  }
  return {
    async pairs(user: AuthedUser, accountId?: string) {
      return (await gateway(user, accountId)).listMarkets();
    },
    async ticker(user: AuthedUser, symbol: string, accountId?: string) {
      const g = await gateway(user, accountId);
      await known(g, symbol);
      return g.fetchTicker(symbol);
    },
    async orderBook(user: AuthedUser, symbol: string, accountId?: string) {
      const g = await gateway(user, accountId);
      await known(g, symbol);
      return g.fetchOrderBook(symbol, 20);
    },
    async candles(user: AuthedUser, symbol: string, timeframe: Timeframe, limit: number, accountId?: string) {
      const g = await gateway(user, accountId);
      await known(g, symbol);
      return g.fetchCandles(symbol, timeframe, undefined, limit);
    },
  };
}
