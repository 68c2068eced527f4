import type { tradingAccounts } from '../db/schema/index';
import type { ExchangeGateway } from '../exchange/gateway';

type AccountRow = typeof tradingAccounts.$inferSelect;

/** Resolves an account to the gateway that trades it: the paper venue or a ccxt exchange. */
export type GatewayProvider = { forAccount(account: AccountRow): Promise<ExchangeGateway> };

export type GatewayFactory = (account: AccountRow) => ExchangeGateway | Promise<ExchangeGateway>;

/** One gateway per account, rebuilt when the account changes (keys rotated, sandbox toggled). */
export function createGatewayProvider(
  factory: GatewayFactory,
): GatewayProvider & { forget(accountId: string): void } {
  const cache = new Map<string, { version: number; gateway: Promise<ExchangeGateway> }>();
  return {
    forAccount(account) {
      const version = account.updatedAt.getTime();
      const hit = cache.get(account.id);
      if (hit && hit.version === version) return hit.gateway;
      const gateway = Promise.resolve(factory(account));
      cache.set(account.id, { version, gateway });
      gateway.catch(() => cache.delete(account.id));
      return gateway;
    },
    forget(accountId) {
      cache.delete(accountId);
    },
  };
}
